-- How many images a person made in the current local day and when that day ends. Clients read their
-- own row and never write it: only the quota functions and the new-user trigger (security definer)
-- and the server (service_role) change it, so the count cannot be reset or lowered from a browser.
-- timezone is the zone of the running window; a change in user_preferences takes over at the next reset.

create table public.user_daily_limits (
  user_id uuid primary key references auth.users (id) on delete cascade,
  generations_today integer not null default 0,
  reset_at timestamptz not null,
  subscription_tier text not null default 'free' references public.tier_quotas (tier),
  timezone text not null default 'UTC',
  updated_at timestamptz not null default now(),
  constraint user_daily_limits_generations_today_check check (generations_today >= 0)
);

comment on table public.user_daily_limits is 'Usage of the daily quota; read by clients, written only by the server.';
comment on column public.user_daily_limits.timezone is
  'Zone of the running window, copied from user_preferences (where it is validated) at each reset.';

alter table public.user_daily_limits enable row level security;

create policy "Owners can read their own daily limits"
  on public.user_daily_limits for select to authenticated
  using (user_id = (select auth.uid()));

revoke all on table public.user_daily_limits from anon, authenticated, service_role;
grant select on table public.user_daily_limits to authenticated;
grant select, insert, update, delete on table public.user_daily_limits to service_role;
