-- Pure helpers that the tables' constraints and the quota functions share: the style catalogue of
-- docs/spec.md §3, validation of IANA time-zone names, and the local-midnight arithmetic behind the daily reset
-- (docs/spec.md §4, §9). They read no table of ours. The public ones are executable by every API role because
-- a check constraint or a generated column runs its functions with the privileges of whoever writes.

create schema if not exists private;
revoke all on schema private from public;
comment on schema private is 'Internals of the database, not exposed through the API.';

create function public.is_style_id(p_style text)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(p_style in (
    'photorealistic', 'anime', 'digital-art', 'oil-painting', 'watercolor', 'pixel-art', '3d-render',
    'comic-book', 'line-art', 'isometric', 'fantasy', 'minimalist', 'cyberpunk', 'steampunk', 'art-nouveau',
    'impressionist', 'pop-art', 'graffiti', 'sketch', 'vintage', 'neon', 'gothic', 'baroque', 'surreal',
    'abstract', 'cartoon', 'nano-banana'
  ), false)
$$;
comment on function public.is_style_id(text) is 'True for the 27 style ids of the product (spec §3).';

-- pg_timezone_names scans the whole zone database (tens of milliseconds), so the default zone answers
-- at once. Names Postgres knows that are not IANA zones (the local clock, POSIX rule files, the
-- leap-second variants and the "Factory" placeholder) are refused.
create function public.is_iana_timezone(p_name text)
returns boolean
language sql
stable
parallel safe
set search_path = ''
as $$
  select coalesce(
    p_name = 'UTC'
    or (
      p_name !~ '^(posix|right)/'
      and p_name not in ('localtime', 'posixrules', 'Factory')
      and exists (select 1 from pg_catalog.pg_timezone_names z where z.name = p_name)
    ),
    false)
$$;
comment on function public.is_iana_timezone(text) is 'True for a time-zone name of the IANA database, e.g. Europe/Paris.';

-- Local midnight is computed on the wall clock of the zone and converted back, so a day that is 23 or
-- 25 hours long (a daylight-saving change) still ends at the real local midnight.
create function public.next_local_midnight(p_from timestamptz, p_tz text)
returns timestamptz
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select (date_trunc('day', p_from at time zone p_tz) + interval '1 day') at time zone p_tz
$$;
comment on function public.next_local_midnight(timestamptz, text) is
  'The first midnight in zone p_tz strictly after p_from.';

-- When the time zone changed during the window that just ended, the next window must still last at
-- least 20 hours: otherwise switching to a zone whose midnight is minutes away would give a fresh quota
-- at once, day after day. 20 hours is shorter than any real calendar day (the shortest, 22 hours, is a
-- two-hour daylight-saving change), so a window in an unchanged zone always ends at the next local midnight.
create function private.next_reset_at(p_previous timestamptz, p_now timestamptz, p_old_tz text, p_new_tz text)
returns timestamptz
language sql
immutable
parallel safe
set search_path = ''
as $$
  select public.next_local_midnight(
    case
      when p_new_tz is distinct from p_old_tz then greatest(p_now, p_previous + interval '20 hours')
      else p_now
    end,
    p_new_tz)
$$;

create function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

revoke all on function public.is_style_id(text) from public;
revoke all on function public.is_iana_timezone(text) from public;
revoke all on function public.next_local_midnight(timestamptz, text) from public;
grant execute on function public.is_style_id(text) to anon, authenticated, service_role;
grant execute on function public.is_iana_timezone(text) to anon, authenticated, service_role;
grant execute on function public.next_local_midnight(timestamptz, text) to anon, authenticated, service_role;
revoke all on function private.next_reset_at(timestamptz, timestamptz, text, text) from public;
revoke all on function private.touch_updated_at() from public;
