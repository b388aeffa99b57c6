-- Core web vitals measured in browsers (docs/spec.md §3 "Web-vitals record"). Signed-in clients may only add
-- measurements of their own. The rating is derived here from the thresholds of docs/spec.md §9, so what is
-- stored never depends on the client's copy of them.

-- The web-vitals library's rule: at most the good threshold is 'good', above the poor one is 'poor'.
create function public.web_vital_rating(p_name text, p_value double precision)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when t.good is null or p_value is null then null
    when p_value <= t.good then 'good'
    when p_value <= t.poor then 'needs-improvement'
    else 'poor'
  end
  from (
    select
      case p_name when 'FCP' then 1800 when 'CLS' then 0.1 when 'INP' then 200
                  when 'LCP' then 2500 when 'FID' then 100 end::double precision as good,
      case p_name when 'FCP' then 3000 when 'CLS' then 0.25 when 'INP' then 500
                  when 'LCP' then 4000 when 'FID' then 300 end::double precision as poor
  ) t
$$;
comment on function public.web_vital_rating(text, double precision) is
  'good | needs-improvement | poor for a metric (FCP, CLS, INP, LCP, FID; ms, CLS unitless).';

revoke all on function public.web_vital_rating(text, double precision) from public;
grant execute on function public.web_vital_rating(text, double precision) to anon, authenticated, service_role;

create table public.web_vitals (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  value double precision not null,
  metric_id text,
  delta double precision,
  rating text generated always as (public.web_vital_rating(name, value)) stored,
  created_at timestamptz not null default now(),
  constraint web_vitals_name_check check (name in ('FCP', 'CLS', 'INP', 'LCP', 'FID')),
  -- NaN sorts above Infinity in Postgres, so this also refuses NaN.
  constraint web_vitals_value_check check (value >= 0 and value < 'Infinity'::double precision),
  constraint web_vitals_delta_check check (delta is null or (delta > '-Infinity'::double precision and delta < 'Infinity'::double precision)),
  constraint web_vitals_metric_id_check check (char_length(metric_id) <= 128)
);

comment on table public.web_vitals is 'Web-vitals measurements; insert-only for their own user.';
comment on column public.web_vitals.metric_id is 'The web-vitals library''s id of the measurement.';

create index web_vitals_name_created_at_idx on public.web_vitals (name, created_at desc);

alter table public.web_vitals enable row level security;

create policy "Signed-in users can record their own web vitals"
  on public.web_vitals for insert to authenticated
  with check (user_id = (select auth.uid()));

revoke all on table public.web_vitals from anon, authenticated, service_role;
grant insert (id, user_id, name, value, metric_id, delta) on table public.web_vitals to authenticated;
grant select, insert, delete on table public.web_vitals to service_role;
