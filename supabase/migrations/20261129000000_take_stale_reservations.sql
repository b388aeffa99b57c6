-- A generate call stores its image, then writes its row; a function ended between the two (a crash, the
-- platform's wall-clock limit) leaves the image with no row. Its task retries the same request id, whose
-- upload lands on the same path and whose row then claims it. A task that never returns (the device's
-- storage was cleared) would leave that image for ever: nobody can read it (an image is handed out only
-- with its row), but it takes space.
--
-- Such a request leaves its reservation too, which stops counting after 10 minutes. This takes the
-- person's reservations older than that with no row (no live call can still hold one: a call ends long
-- before), and answers the names of the images they left, for the caller to remove through storage
-- (storage objects are removed through its API, never by SQL). A request repeated later reserves again
-- and stores its image again.
create or replace function public.take_stale_reservations(p_user_id uuid)
returns setof text
language sql
security definer
set search_path = ''
as $$
  with taken as (
    delete from public.quota_reservations r
     where r.user_id = p_user_id
       and r.created_at < now() - interval '10 minutes'
       and not exists (select 1 from public.generations g where g.id = r.request_id)
    returning r.request_id
  )
  select o.name
    from storage.objects o
    join taken t on o.bucket_id = 'generations' and o.name like p_user_id::text || '/' || t.request_id::text || '.%'
$$;

revoke all on function public.take_stale_reservations(uuid) from public, anon, authenticated, service_role;
grant execute on function public.take_stale_reservations(uuid) to service_role;
