-- Custom styles follow the effective tier the quota reads (decision 152 with decision 148): a premium tier
-- whose paid time (user_daily_limits.subscription_tier_until, 20261126140000_create_billing.sql) has passed
-- is free, even before a quota function has written it back, so making and changing styles stops at that
-- moment too. Security invoker, as before: the caller reads only their own limits row.
create or replace function public.custom_styles_allowed()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    (select l.subscription_tier = 'premium'
            and (l.subscription_tier_until is null or now() < l.subscription_tier_until)
       from public.user_daily_limits l
      where l.user_id = (select auth.uid())),
    false)
$$;

comment on function public.custom_styles_allowed() is
  'True when the caller''s effective tier is premium (subscription_tier, unless subscription_tier_until has passed): they may make and change custom styles.';
