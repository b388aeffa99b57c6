-- Plans you can buy (issue 45; docs/decisions/148-the-billing-server.md). Stripe is the record of who
-- pays for what; these tables are the server's copy, written only by the billing functions (service
-- role) after they read a person's CURRENT subscription from Stripe (the sync), never from an event's
-- own payload. Stripe ids live only in billing_customers and stripe_events, which no client role may
-- read; the subscription a person sees carries no Stripe id.
--
-- The tier the quota reads stays user_daily_limits.subscription_tier. The sync writes it together with
-- subscription_tier_until, the moment the paid time ends on its own (the period's end after a cancel, the
-- end of the grace after a failed renewal, a margin after the period's end for a renewal not yet heard
-- of). Every quota function takes the limits row through private.limits_for_update, which from now on
-- puts the person back on free once that moment has passed, so the tier falls back even when no event
-- ever arrives.

-- One Stripe customer per person, created once: the functions create it with an idempotency key made of
-- the user id and keep the first id written here (insert ... on conflict do nothing, then read back).
create table public.billing_customers (
  user_id uuid primary key references auth.users (id) on delete cascade,
  stripe_customer_id text not null unique,
  created_at timestamptz not null default now()
);

comment on table public.billing_customers is 'The Stripe customer of each person (server only).';

alter table public.billing_customers enable row level security;
-- No policies: RLS refuses every row to anon and authenticated; service_role bypasses RLS.
revoke all on table public.billing_customers from anon, authenticated, service_role;
grant select, insert, update, delete on table public.billing_customers to service_role;

-- The person's subscription as the last sync read it. No row: never subscribed (or the account is new).
create table public.subscriptions (
  user_id uuid primary key references auth.users (id) on delete cascade,
  status text not null,
  plan text not null,
  tier text not null references public.tier_quotas (tier),
  current_period_end timestamptz,
  cancel_at_period_end boolean not null default false,
  ends_at timestamptz,
  grace_until timestamptz,
  -- When the sync read Stripe: a sync that read earlier never overwrites one that read later.
  synced_at timestamptz not null,
  updated_at timestamptz not null default now(),
  constraint subscriptions_plan_check check (plan in ('creator', 'pro')),
  constraint subscriptions_status_check check (status in (
    'active', 'trialing', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused'))
);

comment on table public.subscriptions is
  'Each person''s subscription as last read from Stripe; readable by its owner, written only by the server.';

alter table public.subscriptions enable row level security;

create policy "Owners can read their own subscription"
  on public.subscriptions for select to authenticated
  using (user_id = (select auth.uid()));

revoke all on table public.subscriptions from anon, authenticated, service_role;
grant select on table public.subscriptions to authenticated;
grant select, insert, update, delete on table public.subscriptions to service_role;

-- Every device of the person hears a change of plan at once.
alter publication supabase_realtime add table public.subscriptions;

-- Each Stripe event once: a replay of a known id changes nothing.
create table public.stripe_events (
  id text primary key,
  type text not null,
  customer text,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  -- synced | unknown_customer | ignored | failed
  outcome text not null default 'received'
);

comment on table public.stripe_events is 'Stripe events received by the webhook, by id (server only).';

create index stripe_events_received_at_idx on public.stripe_events (received_at);

alter table public.stripe_events enable row level security;
revoke all on table public.stripe_events from anon, authenticated, service_role;
grant select, insert, update, delete on table public.stripe_events to service_role;

alter table public.user_daily_limits add column subscription_tier_until timestamptz;

comment on column public.user_daily_limits.subscription_tier_until is
  'When the paid subscription_tier ends without further word (the quota functions then set free); null: no end.';

-- The person's limits row, locked, created if missing, reset if its window has ended, and back on free
-- once the paid time has passed. Same as in 20261121000700_create_quota_functions.sql plus that last step.
create or replace function private.limits_for_update(p_user_id uuid)
returns public.user_daily_limits
language plpgsql
set search_path = ''
as $$
declare
  v_row public.user_daily_limits;
  v_tz text;
begin
  select * into v_row from public.user_daily_limits where user_id = p_user_id for update;
  if not found then
    v_tz := coalesce((select p.timezone from public.user_preferences p where p.user_id = p_user_id), 'UTC');
    insert into public.user_daily_limits (user_id, timezone, reset_at)
    values (p_user_id, v_tz, public.next_local_midnight(now(), v_tz))
    on conflict (user_id) do nothing;
    select * into v_row from public.user_daily_limits where user_id = p_user_id for update;
  end if;

  if v_row.subscription_tier_until is not null and now() >= v_row.subscription_tier_until then
    update public.user_daily_limits
       set subscription_tier = 'free', subscription_tier_until = null, updated_at = now()
     where user_id = p_user_id
    returning * into v_row;
  end if;

  if now() >= v_row.reset_at then
    v_tz := coalesce((select p.timezone from public.user_preferences p where p.user_id = p_user_id), v_row.timezone);
    update public.user_daily_limits
       set generations_today = 0,
           timezone = v_tz,
           reset_at = private.next_reset_at(v_row.reset_at, now(), v_row.timezone, v_tz),
           updated_at = now()
     where user_id = p_user_id
    returning * into v_row;
  end if;
  return v_row;
end
$$;

revoke all on function private.limits_for_update(uuid) from public;

-- security definer: the subscription row and the tier must change in one transaction under the limits
-- row's lock, whoever calls; execute is granted to service_role alone (the billing functions' sync).
-- p_subscription is null when the customer has no subscription worth keeping (never subscribed); else
-- {status, plan, tier, current_period_end, cancel_at_period_end, ends_at, grace_until, paid_until}.
-- paid_until: when the tier ends without further word (null: free now). A sync that read Stripe before
-- the last one written (p_synced_at older) changes nothing. Answers the limits as get_my_limits does.
create function public.billing_apply_subscription(p_user_id uuid, p_subscription jsonb, p_synced_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.user_daily_limits;
  v_last timestamptz;
  v_tier text;
  v_until timestamptz;
begin
  if p_user_id is null or p_synced_at is null then
    raise exception 'billing_apply_subscription needs a user id and a sync time' using errcode = '22004';
  end if;
  v_row := private.limits_for_update(p_user_id);
  select s.synced_at into v_last from public.subscriptions s where s.user_id = p_user_id;
  if v_last is not null and v_last > p_synced_at then
    return private.quota_state(v_row) || jsonb_build_object('applied', false);
  end if;

  if p_subscription is null then
    delete from public.subscriptions where user_id = p_user_id;
    v_tier := 'free';
    v_until := null;
  else
    insert into public.subscriptions as s (user_id, status, plan, tier, current_period_end, cancel_at_period_end,
                                           ends_at, grace_until, synced_at, updated_at)
    values (p_user_id, p_subscription ->> 'status', p_subscription ->> 'plan', p_subscription ->> 'tier',
            (p_subscription ->> 'current_period_end')::timestamptz,
            coalesce((p_subscription ->> 'cancel_at_period_end')::boolean, false),
            (p_subscription ->> 'ends_at')::timestamptz, (p_subscription ->> 'grace_until')::timestamptz,
            p_synced_at, now())
    on conflict (user_id) do update
      set status = excluded.status, plan = excluded.plan, tier = excluded.tier,
          current_period_end = excluded.current_period_end, cancel_at_period_end = excluded.cancel_at_period_end,
          ends_at = excluded.ends_at, grace_until = excluded.grace_until, synced_at = excluded.synced_at,
          updated_at = now()
      -- An unchanged read writes nothing, so realtime announces only real changes.
      where (s.status, s.plan, s.tier, s.current_period_end, s.cancel_at_period_end, s.ends_at, s.grace_until)
            is distinct from (excluded.status, excluded.plan, excluded.tier, excluded.current_period_end,
                              excluded.cancel_at_period_end, excluded.ends_at, excluded.grace_until);
    update public.subscriptions set synced_at = p_synced_at where user_id = p_user_id and synced_at < p_synced_at;
    v_until := (p_subscription ->> 'paid_until')::timestamptz;
    v_tier := case when v_until is not null and v_until > now() then p_subscription ->> 'tier' else 'free' end;
    if v_tier = 'free' then
      v_until := null;
    end if;
  end if;

  update public.user_daily_limits
     set subscription_tier = v_tier, subscription_tier_until = v_until, updated_at = now()
   where user_id = p_user_id
     and (subscription_tier, subscription_tier_until) is distinct from (v_tier, v_until)
  returning * into v_row;
  if not found then
    select * into v_row from public.user_daily_limits where user_id = p_user_id;
  end if;
  return private.quota_state(v_row) || jsonb_build_object('applied', true);
end
$$;

revoke all on function public.billing_apply_subscription(uuid, jsonb, timestamptz)
  from public, anon, authenticated, service_role;
grant execute on function public.billing_apply_subscription(uuid, jsonb, timestamptz) to service_role;
