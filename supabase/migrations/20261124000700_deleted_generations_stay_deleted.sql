-- A generation the person deleted is never drawn, stored or charged again under its request id.
--
-- Found by the seeded fault harness (docs/decisions/097-seeded-fault-harness.md): a send whose answer
-- was lost leaves its task waiting for a retry while the row, made and charged, reaches the library by
-- realtime; the person deletes the image; the task's retry then found no row, reserved a new slot, drew
-- the image again, stored it again and charged again. The person saw a deleted image come back and
-- paid twice for one request id.
--
-- The database now remembers which request ids were deleted (a tombstone per deleted row, kept 30 days,
-- longer than any queued retry waits in practice): quota_reserve answers `deleted: true` for such an
-- id without reserving, and record_generation refuses to store it again (created: false, deleted:
-- true), so even a request already past the reservation cannot bring it back or charge for it.
-- Tombstones of an account that is being deleted are not written (the user row is already gone).

create table private.generation_tombstones (
  id uuid primary key,
  user_id uuid not null,
  deleted_at timestamptz not null default now()
);

create index generation_tombstones_deleted_at on private.generation_tombstones (deleted_at);

comment on table private.generation_tombstones is
  'Request ids of deleted generations (30 days): a late retry of one is answered as deleted, never redrawn.';

create function private.remember_deleted_generation()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- A cascade from a deleted account has already removed the user: nothing to remember for them.
  if exists (select 1 from auth.users u where u.id = old.user_id) then
    insert into private.generation_tombstones (id, user_id) values (old.id, old.user_id)
    on conflict (id) do nothing;
  end if;
  delete from private.generation_tombstones t where t.deleted_at < now() - interval '30 days';
  return old;
end
$$;

create trigger generations_remember_deleted
  after delete on public.generations
  for each row execute function private.remember_deleted_generation();

create or replace function public.quota_reserve(p_user_id uuid, p_request_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.user_daily_limits;
  v_held public.quota_reservations;
  v_has_held boolean;
  v_limit integer;
  v_allowed boolean;
begin
  if p_user_id is null or p_request_id is null then
    raise exception 'quota_reserve needs a user id and a request id' using errcode = '22004';
  end if;
  v_row := private.limits_for_update(p_user_id);
  v_limit := (select q.daily_limit from public.tier_quotas q where q.tier = v_row.subscription_tier);

  -- A request whose generation the person deleted: nothing to reserve, nothing to draw.
  if exists (select 1 from private.generation_tombstones t where t.id = p_request_id and t.user_id = p_user_id)
     and not exists (select 1 from public.generations g where g.id = p_request_id) then
    return private.quota_state(v_row) || jsonb_build_object('allowed', false, 'deleted', true);
  end if;

  select * into v_held from public.quota_reservations r where r.request_id = p_request_id;
  v_has_held := found;
  if v_has_held and v_held.user_id <> p_user_id then
    raise exception 'request id % is held by another person', p_request_id using errcode = '23505';
  end if;

  if exists (select 1 from public.generations g where g.id = p_request_id and g.user_id = p_user_id) then
    v_allowed := true;
  elsif v_has_held and v_held.created_at > now() - interval '10 minutes' then
    v_allowed := true;
  else
    v_allowed := v_row.generations_today + private.live_reservations(p_user_id) < v_limit;
    if v_allowed then
      insert into public.quota_reservations (request_id, user_id)
      values (p_request_id, p_user_id)
      on conflict (request_id) do update set created_at = now();
    end if;
  end if;

  -- Reservations a day old can no longer be committed by any live function call.
  delete from public.quota_reservations r
   where r.user_id = p_user_id and r.created_at < now() - interval '1 day';

  return private.quota_state(v_row) || jsonb_build_object('allowed', v_allowed);
end
$$;

create or replace function public.record_generation(p_generation jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_new public.generations;
  v_row public.generations;
  v_limits public.user_daily_limits;
  v_committed boolean;
begin
  if p_generation is null or jsonb_typeof(p_generation) <> 'object' then
    raise exception 'record_generation needs a generation object' using errcode = '22004';
  end if;
  v_new := jsonb_populate_record(null::public.generations, p_generation);
  if v_new.id is null or v_new.user_id is null then
    raise exception 'record_generation needs an id and a user id' using errcode = '22004';
  end if;

  v_limits := private.limits_for_update(v_new.user_id);

  -- Deleted by the person while this request was drawing: it is not stored again, and not charged (its
  -- reservation is released by the caller, as for any request that stores nothing).
  if exists (select 1 from private.generation_tombstones t where t.id = v_new.id and t.user_id = v_new.user_id) then
    return jsonb_build_object('created', false, 'deleted', true);
  end if;

  insert into public.generations (id, user_id, prompt, negative_prompt, style, quality, aspect_ratio,
                                  width, height, seed, provider, model, image_path, is_public)
  values (v_new.id, v_new.user_id, v_new.prompt, coalesce(v_new.negative_prompt, ''),
          coalesce(v_new.style, 'photorealistic'), coalesce(v_new.quality, 'standard'),
          coalesce(v_new.aspect_ratio, '1:1'), coalesce(v_new.width, 1024), coalesce(v_new.height, 1024),
          v_new.seed, v_new.provider, v_new.model, v_new.image_path, coalesce(v_new.is_public, false))
  on conflict (id) do nothing
  returning * into v_row;
  if not found then
    return jsonb_build_object('created', false);
  end if;

  delete from public.quota_reservations r where r.request_id = v_new.id and r.user_id = v_new.user_id;
  v_committed := found;
  if v_committed then
    update public.user_daily_limits
       set generations_today = generations_today + 1, updated_at = now()
     where user_id = v_new.user_id
    returning * into v_limits;
  end if;

  return jsonb_build_object(
    'created', true,
    'committed', v_committed,
    'row', to_jsonb(v_row) - 'search',
    'quota', private.quota_state(v_limits));
end
$$;
