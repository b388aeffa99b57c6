-- Daily generation quota per subscription tier (docs/spec.md §9): the one place these numbers are defined.
-- Everyone may read them (the pricing screen shows them); no API role may change them, only a migration.

create table public.tier_quotas (
  tier text primary key,
  daily_limit integer not null,
  constraint tier_quotas_tier_check check (tier in ('free', 'pro', 'premium')),
  constraint tier_quotas_daily_limit_check check (daily_limit >= 0)
);

comment on table public.tier_quotas is 'Generations per local day for each subscription tier.';

insert into public.tier_quotas (tier, daily_limit) values
  ('free', 5),
  ('pro', 999),
  ('premium', 9999);

alter table public.tier_quotas enable row level security;

create policy "Anyone can read tier quotas"
  on public.tier_quotas for select to anon, authenticated
  using (true);

revoke all on table public.tier_quotas from anon, authenticated, service_role;
grant select on table public.tier_quotas to anon, authenticated, service_role;
