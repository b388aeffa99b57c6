-- The daily quota, enforced in the database. Every path takes the person's limits row FOR UPDATE
-- first, which serialises concurrent requests of one person: twenty parallel reservations with five
-- slots left give exactly five. The same lock applies the reset: when now() reaches reset_at the count
-- goes back to 0 and reset_at moves to the next local midnight (docs/spec.md §4).
-- Clients: get_my_limits, set_my_timezone, increment_generation_count. Server: quota_reserve,
-- quota_commit, quota_release (service_role only; the generate function calls them).

-- A reservation stops counting after this long (see quota_reservations).
create function private.live_reservations(p_user_id uuid)
returns integer
language sql
stable
set search_path = ''
as $$
  select count(*)::integer
  from public.quota_reservations r
  where r.user_id = p_user_id and r.created_at > now() - interval '10 minutes'
$$;

-- The person's limits row, locked, created if missing and reset if its window has ended.
create function private.limits_for_update(p_user_id uuid)
returns public.user_daily_limits
language plpgsql
set search_path = ''
as $$
declare
  v_row public.user_daily_limits;
  v_tz text;
begin
  select * into v_row from public.user_daily_limits where user_id = p_user_id for update;
  if not found then
    v_tz := coalesce((select p.timezone from public.user_preferences p where p.user_id = p_user_id), 'UTC');
    insert into public.user_daily_limits (user_id, timezone, reset_at)
    values (p_user_id, v_tz, public.next_local_midnight(now(), v_tz))
    on conflict (user_id) do nothing;
    select * into v_row from public.user_daily_limits where user_id = p_user_id for update;
  end if;

  if now() >= v_row.reset_at then
    v_tz := coalesce((select p.timezone from public.user_preferences p where p.user_id = p_user_id), v_row.timezone);
    update public.user_daily_limits
       set generations_today = 0,
           timezone = v_tz,
           reset_at = private.next_reset_at(v_row.reset_at, now(), v_row.timezone, v_tz),
           updated_at = now()
     where user_id = p_user_id
    returning * into v_row;
  end if;
  return v_row;
end
$$;

-- What every quota function answers with. remaining counts live reservations as used, so a client's
-- gate agrees with the server's while generations are in flight.
create function private.quota_state(p_row public.user_daily_limits)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'generations_today', p_row.generations_today,
    'daily_limit', q.daily_limit,
    'remaining', greatest(q.daily_limit - p_row.generations_today - private.live_reservations(p_row.user_id), 0),
    'reset_at', p_row.reset_at,
    'tier', p_row.subscription_tier,
    'timezone', p_row.timezone)
  from public.tier_quotas q
  where q.tier = p_row.subscription_tier
$$;

-- security definer: the limits row is not writable by clients, yet reading it must create and reset
-- it. The function acts only on the caller's own row (auth.uid()).
create function public.get_my_limits()
returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
begin
  if v_uid is null then
    raise exception 'sign in to read your limits' using errcode = '42501';
  end if;
  return private.quota_state(private.limits_for_update(v_uid))::json;
end
$$;
comment on function public.get_my_limits() is
  'The caller''s quota: {generations_today, daily_limit, remaining, reset_at, tier, timezone}.';

-- Runs as the caller: it only writes the caller's own preferences, which RLS already allows. The new
-- zone is stored in user_preferences and takes over at the next reset, so it cannot end today early.
create function public.set_my_timezone(p_timezone text)
returns json
language plpgsql
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_limits json;
begin
  if v_uid is null then
    raise exception 'sign in to set your time zone' using errcode = '42501';
  end if;
  begin
    insert into public.user_preferences (user_id, timezone)
    values (v_uid, p_timezone)
    on conflict (user_id) do update set timezone = excluded.timezone;
  exception
    when check_violation or not_null_violation then
      raise exception 'unknown time zone: %', coalesce(p_timezone, 'null')
        using errcode = '22023', hint = 'Use an IANA name such as Europe/Paris.';
  end;
  v_limits := public.get_my_limits();
  return json_build_object('timezone', p_timezone, 'applies_from', v_limits -> 'reset_at');
end
$$;
comment on function public.set_my_timezone(text) is
  'Sets the caller''s IANA time zone; it governs the daily reset from applies_from on.';

-- security definer: clients cannot write their limits row. Counts one generation for the caller only;
-- any other id is refused with 42501. The generate function counts through quota_commit instead.
create function public.increment_generation_count(p_user_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_count integer;
begin
  if v_uid is null or p_user_id is distinct from v_uid then
    raise exception 'a person can only count their own generations' using errcode = '42501';
  end if;
  perform private.limits_for_update(v_uid);
  update public.user_daily_limits
     set generations_today = generations_today + 1, updated_at = now()
   where user_id = v_uid
  returning generations_today into v_count;
  return v_count;
end
$$;

-- security definer: service_role could write the tables itself, but these must run as one unit under
-- the row lock whoever calls them; execute is granted to service_role alone.
-- Idempotent per request id: a repeat of a live reservation, or of a request whose generation row
-- already exists, takes no second slot. An expired reservation that is repeated must find room again.
create function public.quota_reserve(p_user_id uuid, p_request_id uuid)
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

-- security definer: see quota_reserve. Counts the reservation once: it is removed as it is counted, so
-- a repeated commit, or a commit of an unknown or released request id, changes nothing. A reservation
-- past its 10 minutes still counts here: the image was made.
create function public.quota_commit(p_user_id uuid, p_request_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.user_daily_limits;
  v_committed boolean;
begin
  if p_user_id is null or p_request_id is null then
    raise exception 'quota_commit needs a user id and a request id' using errcode = '22004';
  end if;
  v_row := private.limits_for_update(p_user_id);
  delete from public.quota_reservations r where r.request_id = p_request_id and r.user_id = p_user_id;
  v_committed := found;
  if v_committed then
    update public.user_daily_limits
       set generations_today = generations_today + 1, updated_at = now()
     where user_id = p_user_id
    returning * into v_row;
  end if;
  return private.quota_state(v_row) || jsonb_build_object('committed', v_committed);
end
$$;

-- security definer: see quota_reserve. Gives the slot back after a failed generation; releasing an
-- unknown or already settled request id is a no-op.
create function public.quota_release(p_user_id uuid, p_request_id uuid)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.user_daily_limits;
  v_released boolean;
begin
  if p_user_id is null or p_request_id is null then
    raise exception 'quota_release needs a user id and a request id' using errcode = '22004';
  end if;
  v_row := private.limits_for_update(p_user_id);
  delete from public.quota_reservations r where r.request_id = p_request_id and r.user_id = p_user_id;
  v_released := found;
  return private.quota_state(v_row) || jsonb_build_object('released', v_released);
end
$$;

revoke all on function private.live_reservations(uuid) from public;
revoke all on function private.limits_for_update(uuid) from public;
revoke all on function private.quota_state(public.user_daily_limits) from public;

revoke all on function public.get_my_limits() from public, anon, authenticated, service_role;
revoke all on function public.set_my_timezone(text) from public, anon, authenticated, service_role;
revoke all on function public.increment_generation_count(uuid) from public, anon, authenticated, service_role;
grant execute on function public.get_my_limits() to authenticated;
grant execute on function public.set_my_timezone(text) to authenticated;
grant execute on function public.increment_generation_count(uuid) to authenticated;

revoke all on function public.quota_reserve(uuid, uuid) from public, anon, authenticated, service_role;
revoke all on function public.quota_commit(uuid, uuid) from public, anon, authenticated, service_role;
revoke all on function public.quota_release(uuid, uuid) from public, anon, authenticated, service_role;
grant execute on function public.quota_reserve(uuid, uuid) to service_role;
grant execute on function public.quota_commit(uuid, uuid) to service_role;
grant execute on function public.quota_release(uuid, uuid) to service_role;
