-- The app's live channel is private (docs/decisions/128-the-browser-side-of-the-door.md). Each signed-in
-- device joins "library:<user id>" for the changes of the person's generations (postgres_changes, which
-- the generations table's own RLS already guards). As a public channel anyone could have joined that
-- topic and pushed broadcast or presence into it; the app now joins it as a private channel, which
-- Realtime lets a client join only when a SELECT policy here lets it read the topic, and send broadcast
-- or track presence on only when an INSERT policy lets it write. Both name the person's own topic and
-- nothing else: a stranger or a visitor can neither join it nor send on it.

create policy "A person receives broadcast and presence on their own library channel only"
  on realtime.messages
  for select
  to authenticated
  using (
    extension in ('broadcast', 'presence')
    and topic = (select realtime.topic())
    and topic = 'library:' || (select auth.uid())::text
  );

create policy "A person sends broadcast and presence on their own library channel only"
  on realtime.messages
  for insert
  to authenticated
  with check (
    extension in ('broadcast', 'presence')
    and topic = (select realtime.topic())
    and topic = 'library:' || (select auth.uid())::text
  );
