-- The time of the last sync is kept with the customer (server only), not in the subscriptions row: a sync
-- that read nothing new writes no subscriptions row, so realtime tells every device of a real change only,
-- and a stale read stays refused even after the row is gone (decision 148). Same function as in
-- 20261126140100_billing_leaves_unsubscribed_tiers.sql otherwise.

alter table public.billing_customers add column synced_at timestamptz;

comment on column public.billing_customers.synced_at is
  'When the last sync of this customer read Stripe; an older read changes nothing.';

-- security definer: see 20261126140000_create_billing.sql (one transaction under the limits row's lock,
-- execute for service_role alone).
create or replace function public.billing_apply_subscription(p_user_id uuid, p_subscription jsonb, p_synced_at timestamptz)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row public.user_daily_limits;
  v_last timestamptz;
  v_had boolean;
  v_tier text;
  v_until timestamptz;
begin
  if p_user_id is null or p_synced_at is null then
    raise exception 'billing_apply_subscription needs a user id and a sync time' using errcode = '22004';
  end if;
  v_row := private.limits_for_update(p_user_id);
  v_had := exists (select 1 from public.subscriptions s where s.user_id = p_user_id);
  select greatest(c.synced_at, s.synced_at) into v_last
    from (select 1) one
    left join public.billing_customers c on c.user_id = p_user_id
    left join public.subscriptions s on s.user_id = p_user_id;
  if v_last is not null and v_last > p_synced_at then
    return private.quota_state(v_row) || jsonb_build_object('applied', false);
  end if;
  update public.billing_customers set synced_at = p_synced_at where user_id = p_user_id;

  if p_subscription is null and not v_had then
    -- Never subscribed: nothing of billing's to undo, so a tier set otherwise stays.
    return private.quota_state(v_row) || jsonb_build_object('applied', false);
  elsif p_subscription is null then
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
