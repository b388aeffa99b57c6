-- Analytics rows are inserted with client-minted ids so that a resend stores nothing twice. Until now
-- a resend (a send whose answer was lost: the page was closed or navigated while it was on the wire)
-- answered 409 from the primary key, which the app counts as sent but every browser logs as a failed
-- request. The tables are insert-only for their owners (no SELECT, so no upsert with ON CONFLICT from
-- the client), so the database itself now lets a row whose id is already stored go quietly: a BEFORE
-- INSERT trigger skips it, and the insert answers as any other. Whose row holds that id is not revealed
-- either way (before, a 409 told a caller that an id existed). Two inserts of one new id at the same
-- instant still meet the primary key, as before.

create function private.skip_stored_telemetry()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_table_name = 'app_events' and exists (select 1 from public.app_events e where e.id = new.id) then
    return null;
  end if;
  if tg_table_name = 'web_vitals' and exists (select 1 from public.web_vitals v where v.id = new.id) then
    return null;
  end if;
  return new;
end
$$;

create trigger app_events_skip_stored
  before insert on public.app_events
  for each row execute function private.skip_stored_telemetry();

create trigger web_vitals_skip_stored
  before insert on public.web_vitals
  for each row execute function private.skip_stored_telemetry();
