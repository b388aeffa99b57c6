-- A session ended is ended everywhere (docs/decisions/129-a-session-ended-is-ended-everywhere.md). An
-- access token stays valid until it lapses (up to an hour) whatever becomes of its session, so a device
-- learns that its session was ended elsewhere (signed out everywhere, signed out by a password change,
-- its account deleted) only when it asks. This tells it within seconds: every statement that deletes
-- sessions sends, through Realtime's broadcast from the database, one message per person to their
-- private topic "session:<user id>" naming the sessions that ended. A device hearing its own session
-- there asks the auth server (GET /auth/v1/user) before it signs out, so the message is only a hint.
-- Deleting an account deletes its sessions by cascade, which fires this trigger too.

-- security definer: the sessions are deleted by the auth service's role, which may not write
-- realtime.messages; the function writes only the message, to the topic of the sessions' own person.
create function private.announce_ended_sessions()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform realtime.send(
    jsonb_build_object('session_ids', jsonb_agg(ended.id order by ended.id)),
    'session.ended',
    'session:' || ended.user_id::text,
    true
  )
  from ended
  group by ended.user_id;
  return null;
end
$$;

revoke all on function private.announce_ended_sessions() from public;

create trigger on_auth_sessions_ended
  after delete on auth.sessions
  referencing old table as ended
  for each statement execute function private.announce_ended_sessions();

-- Only the person may join their own private topic; nobody may send on it (no INSERT policy), so what
-- arrives there was written by the trigger above.
create policy "A person hears of their own ended sessions"
  on realtime.messages
  for select
  to authenticated
  using (
    extension = 'broadcast'
    and topic = (select realtime.topic())
    and topic = 'session:' || (select auth.uid())::text
  );
