-- Analytics inserts are bounded per request and per person (decision 137). Before, one request of
-- 15,000 small rows was stored whole (and held the embedded database for seconds), and nothing limited
-- how many a person could add. Each INSERT statement into app_events or web_vitals may now store at most
-- 100 rows, and a signed-in person at most 600 rows of each table a minute; past either the statement
-- is refused whole and rolled back, with PostgREST's status codes: SQLSTATE PT413 (413) for too many rows
-- at once, PT429 (429) for too many in the minute. The app sends 50 at a time, splits a refused batch
-- item by item and keeps a throttled one for later, so nothing it already holds is lost.

create function private.bound_telemetry_inserts()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_rows integer;
  v_recent integer;
  v_uid uuid := auth.uid();
begin
  select count(*) into v_rows from inserted;
  if v_rows > 100 then
    raise exception 'too many rows in one request' using errcode = 'PT413',
      detail = format('At most 100 rows of %s may be inserted at once; %s were sent.', tg_table_name, v_rows);
  end if;
  -- The server (no signed-in person) is bounded per statement only.
  if v_uid is null then
    return null;
  end if;
  if tg_table_name = 'app_events' then
    select count(*) into v_recent from public.app_events
      where user_id = v_uid and created_at > now() - interval '1 minute';
  else
    select count(*) into v_recent from public.web_vitals
      where user_id = v_uid and created_at > now() - interval '1 minute';
  end if;
  if v_recent > 600 then
    raise exception 'too many rows this minute' using errcode = 'PT429',
      detail = format('At most 600 rows of %s may be added a minute; try again later.', tg_table_name);
  end if;
  return null;
end
$$;
comment on function private.bound_telemetry_inserts() is
  'Refuses an analytics insert of more than 100 rows (PT413) or past 600 rows a person a minute (PT429).';

create trigger app_events_bounded
  after insert on public.app_events
  referencing new table as inserted
  for each statement execute function private.bound_telemetry_inserts();

create trigger web_vitals_bounded
  after insert on public.web_vitals
  referencing new table as inserted
  for each statement execute function private.bound_telemetry_inserts();

-- web_vitals is read by person and time here, as app_events already is.
create index web_vitals_user_id_created_at_idx on public.web_vitals (user_id, created_at desc);
