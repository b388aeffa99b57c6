-- Every new account starts with its preferences (spec defaults) and its limits row (tier free, count 0,
-- reset at the next local midnight). The zone is the sign-up metadata's "timezone" when it is a valid
-- IANA name (supabase.auth.signUp({ options: { data: { timezone } } })), else UTC.

-- security definer: the insert into auth.users is made by the auth service's role, which has no rights
-- on these public tables, and user_daily_limits is writable by no client role at all.
create function private.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_tz text := new.raw_user_meta_data ->> 'timezone';
begin
  if v_tz is null or not public.is_iana_timezone(v_tz) then
    v_tz := 'UTC';
  end if;
  insert into public.user_preferences (user_id, timezone)
  values (new.id, v_tz)
  on conflict (user_id) do nothing;
  insert into public.user_daily_limits (user_id, timezone, reset_at)
  values (new.id, v_tz, public.next_local_midnight(now(), v_tz))
  on conflict (user_id) do nothing;
  return new;
end
$$;

revoke all on function private.handle_new_user() from public;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_new_user();
