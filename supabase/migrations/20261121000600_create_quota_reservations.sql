-- Quota slots held by generations in flight: the generate function reserves one before it calls a
-- provider, then commits it (the image is stored) or releases it (generation failed). A reservation
-- older than 10 minutes stops counting, so a function that crashed cannot hold a slot forever.
-- Server only: no client role may see or touch it.

create table public.quota_reservations (
  request_id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);

comment on table public.quota_reservations is 'Quota slots held by generations in flight (server only).';

create index quota_reservations_user_id_created_at_idx on public.quota_reservations (user_id, created_at);

alter table public.quota_reservations enable row level security;

-- No policies: RLS refuses every row to anon and authenticated; service_role bypasses RLS.
revoke all on table public.quota_reservations from anon, authenticated, service_role;
grant select, insert, update, delete on table public.quota_reservations to service_role;
