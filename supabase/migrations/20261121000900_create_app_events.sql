-- Product analytics events (docs/spec.md §3 "Event record"). Signed-in clients may only add events of their
-- own; nobody but the server reads them back. id may be minted by the client so a replayed outbox entry
-- is recognised (insert with on conflict do nothing).

create table public.app_events (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  metadata jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  constraint app_events_name_check check (char_length(name) between 1 and 100),
  constraint app_events_metadata_check
    check (jsonb_typeof(metadata) = 'object' and octet_length(metadata::text) <= 8192)
);

comment on table public.app_events is 'Analytics events; insert-only for their own user.';

create index app_events_user_id_created_at_idx on public.app_events (user_id, created_at desc);

alter table public.app_events enable row level security;

create policy "Signed-in users can record their own events"
  on public.app_events for insert to authenticated
  with check (user_id = (select auth.uid()));

revoke all on table public.app_events from anon, authenticated, service_role;
grant insert (id, user_id, name, metadata) on table public.app_events to authenticated;
grant select, insert, delete on table public.app_events to service_role;
