-- A generation's image can be handed out only while its row says so (issue: signed URLs outlived
-- publishing). Until now anyone who could read a published image could also sign it: a visitor with the
-- anon key got a year-long signed URL, and a signed URL is served with nothing re-checked but the token
-- and the object's existence (hosted storage-api reads the object as its superuser), so the link kept
-- working after the owner unpublished the image, and after the row was deleted while the object stayed.
--
-- Storage tells the database which operation a request performs: storage-api sets the transaction-local
-- setting `storage.operation` to the route's name (supabase/storage, src/http/routes/operations.ts) and
-- `storage.operation()` reads it; the local backend sets the same names (supabase/local/storage/
-- operation.ts). The read policy below uses it:
--   * a visitor (anon, or any signed-in person who is not the owner) may VIEW a published image, that is
--     download it, ask for its size and type, or have it scaled, each request checked against the row
--     again; every other operation, signing included, finds nothing. This list is an allow-list, so an
--     operation hosted adds later is refused to visitors rather than granted.
--   * the owner may do anything reading allows in their folder, but downloading, scaling and signing an
--     image need its generation row: an image whose row is gone is handed to nobody (the service role
--     still reads it, bypassing RLS). Listing and deleting (and SQL run with no operation set) stay keyed
--     on the folder only, so the owner removes such an image after its row (decision 38) and the
--     delete-account sweep still sees it.
-- Only the owner can therefore mint a signed URL, for an image with a row; theirs is theirs to share.

-- Hosted Supabase has had storage.operation() since 2024 (storage-api tenant migration 0024) and owns it
-- as supabase_storage_admin, so it is created only where it is missing: the local backend's database.
do $$
begin
  if to_regprocedure('storage.operation()') is null then
    create function storage.operation() returns text
      language sql stable
      as $f$ select current_setting('storage.operation', true) $f$;
    grant execute on function storage.operation() to anon, authenticated, service_role;
  end if;
end $$;

drop policy if exists "Owners and visitors can read own or published generation images" on storage.objects;

create policy "Owners read their generation images and visitors only view published ones"
  on storage.objects for select to anon, authenticated
  using (
    bucket_id = 'generations'
    and (
      (
        (storage.foldername(name))[1] = (select auth.uid())::text
        and (
          coalesce((select storage.operation()), '') in (
            '', 'storage.object.list', 'storage.object.list_v2', 'storage.object.delete', 'storage.object.delete_many'
          )
          or exists (
            select 1
            from public.generations g
            where g.image_path = objects.name
              and g.user_id = (select auth.uid())
          )
        )
      )
      or (
        coalesce((select storage.operation()), '') in (
          'storage.object.get_authenticated',
          'object.get_authenticated_info',
          'object.head_authenticated_info',
          'storage.object.info_authenticated',
          'storage.render.image_authenticated'
        )
        and exists (
          select 1
          from public.generations g
          where g.is_public
            and g.image_path = objects.name
            and g.user_id::text = (storage.foldername(objects.name))[1]
        )
      )
    )
  );
