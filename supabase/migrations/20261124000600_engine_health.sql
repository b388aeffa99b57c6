-- Engine health, measured from the product's own records (/status shows it; no invented uptime
-- figure). The generate function notes every call it makes to an image engine: which engine, whether
-- an image came of it, the error code when not, and the time from the call to the image stored with
-- its row (the person's wait, less the network to and from the browser). Anyone may read the last 24
-- hours as figures per engine; nobody but the function writes, and nobody reads a single attempt (no
-- user, request or prompt is kept: an attempt is an engine, an outcome and a time).

create table private.engine_attempts (
  id bigint generated always as identity primary key,
  provider text not null check (length(provider) between 1 and 40),
  ok boolean not null,
  error_code text check (error_code is null or length(error_code) <= 40),
  ms numeric not null check (ms >= 0 and ms < 3600000),
  at timestamptz not null default now()
);

create index engine_attempts_at on private.engine_attempts (at);

comment on table private.engine_attempts is
  'One row per image-engine call of the generate function: engine, outcome, time to image; kept 7 days.';

create function public.record_engine_attempt(p_provider text, p_ok boolean, p_error_code text, p_ms numeric)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.engine_attempts (provider, ok, error_code, ms)
  values (p_provider, p_ok, case when p_ok then null else p_error_code end, greatest(p_ms, 0));
  -- Older than a week is never shown: let it go as new rows come (the index makes this cheap).
  delete from private.engine_attempts where at < now() - interval '7 days';
end
$$;

comment on function public.record_engine_attempt(text, boolean, text, numeric) is
  'Notes one image-engine call (server only): engine, whether it made an image, error code, milliseconds.';

revoke all on function public.record_engine_attempt(text, boolean, text, numeric) from public, anon, authenticated;
grant execute on function public.record_engine_attempt(text, boolean, text, numeric) to service_role;

-- Per engine over the last 24 hours: calls, failures, and the median and 95th percentile time to an
-- image of the calls that made one (null when none did). A prompt the engine's moderation refused
-- (nsfw_content) is the engine working as it should: it counts as a call, not as a failure.
create function public.engine_health()
returns table (provider text, attempts integer, failures integer, p50_ms integer, p95_ms integer)
language sql
stable
security definer
set search_path = ''
as $$
  select a.provider,
         count(*)::integer as attempts,
         (count(*) filter (where not a.ok and a.error_code is distinct from 'nsfw_content'))::integer as failures,
         round(percentile_cont(0.5) within group (order by a.ms) filter (where a.ok))::integer as p50_ms,
         round(percentile_cont(0.95) within group (order by a.ms) filter (where a.ok))::integer as p95_ms
    from private.engine_attempts a
   where a.at > now() - interval '24 hours'
   group by a.provider
   order by a.provider
$$;

comment on function public.engine_health() is
  'Per image engine over the last 24 hours: calls, failures, p50 and p95 milliseconds to an image.';

revoke all on function public.engine_health() from public;
grant execute on function public.engine_health() to anon, authenticated, service_role;
