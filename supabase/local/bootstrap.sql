-- What the Supabase platform provides before any project migration runs: the API roles, the auth and
-- storage schemas with the helper functions policies use, the realtime publication, and the default
-- privileges Supabase grants in schema public. The local backend runs this before the migrations, so
-- that the same migrations apply here and on a hosted project. Idempotent: safe on every start.

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then create role authenticated nologin noinherit; end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then create role service_role nologin noinherit bypassrls; end if;
end $$;

-- ---------------------------------------------------------------- auth
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key default gen_random_uuid(),
  aud varchar(255) default 'authenticated',
  role varchar(255) default 'authenticated',
  email varchar(255) unique,
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  confirmed_at timestamptz,
  recovery_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb default '{}'::jsonb,
  raw_user_meta_data jsonb default '{}'::jsonb,
  phone text,
  banned_until timestamptz,
  is_anonymous boolean not null default false,
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);

create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  not_after timestamptz
);

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token varchar(255) not null unique,
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  parent varchar(255),
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists refresh_tokens_session_idx on auth.refresh_tokens (session_id);

create table if not exists auth.one_time_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type text not null,
  token_hash text not null unique,
  relates_to text not null,
  created_at timestamptz not null default now()
);

-- When an invitation and a sign-up confirmation went out, a pending e-mail change (the new address,
-- when its links went out, how many of the two have been followed), when a reauthentication code went
-- out, as GoTrue keeps them on the user,
-- and the token types e-mail change links are stored as.
alter table auth.users add column if not exists invited_at timestamptz;
alter table auth.users add column if not exists confirmation_sent_at timestamptz;
alter table auth.users add column if not exists email_change varchar(255);
alter table auth.users add column if not exists email_change_sent_at timestamptz;
alter table auth.users add column if not exists email_change_confirm_status smallint not null default 0;
alter table auth.users add column if not exists reauthentication_sent_at timestamptz;
alter table auth.one_time_tokens drop constraint if exists one_time_tokens_token_type_check;
alter table auth.one_time_tokens add constraint one_time_tokens_token_type_check
  check (token_type in ('recovery', 'signup', 'email_change_current', 'email_change_new'));

-- Multi-factor authentication (TOTP), as GoTrue keeps it: a session's assurance level and the factor
-- that raised it, how the session was authenticated (`amr`, newest first; GoTrue's mfa_amr_claims),
-- the enrolled factors and their challenges.
alter table auth.sessions add column if not exists aal text not null default 'aal1';
alter table auth.sessions add column if not exists factor_id uuid;
alter table auth.sessions add column if not exists amr jsonb;
create table if not exists auth.mfa_factors (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type text not null check (factor_type in ('totp')),
  status text not null check (status in ('unverified', 'verified')),
  secret text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_challenged_at timestamptz
);
create index if not exists mfa_factors_user_idx on auth.mfa_factors (user_id, created_at);
create table if not exists auth.mfa_challenges (
  id uuid primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null default now(),
  verified_at timestamptz,
  ip_address text not null
);

create or replace function auth.jwt() returns jsonb
language sql stable as $$
  select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb
$$;

create or replace function auth.uid() returns uuid
language sql stable as $$
  select nullif(coalesce(nullif(current_setting('request.jwt.claim.sub', true), ''), auth.jwt() ->> 'sub'), '')::uuid
$$;

create or replace function auth.role() returns text
language sql stable as $$
  select coalesce(nullif(current_setting('request.jwt.claim.role', true), ''), auth.jwt() ->> 'role')
$$;

create or replace function auth.email() returns text
language sql stable as $$
  select auth.jwt() ->> 'email'
$$;

grant execute on function auth.jwt(), auth.uid(), auth.role(), auth.email() to anon, authenticated, service_role;

-- ---------------------------------------------------------------- storage
create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text not null unique,
  owner uuid,
  public boolean not null default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  unique (bucket_id, name)
);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;
grant all on storage.objects to anon, authenticated, service_role;
grant select on storage.buckets to anon, authenticated;
grant all on storage.buckets to service_role;

create or replace function storage.foldername(name text) returns text[]
language sql immutable as $$
  select (string_to_array(name, '/'))[1:greatest(array_length(string_to_array(name, '/'), 1) - 1, 0)]
$$;

create or replace function storage.filename(name text) returns text
language sql immutable as $$
  select (string_to_array(name, '/'))[array_length(string_to_array(name, '/'), 1)]
$$;

create or replace function storage.extension(name text) returns text
language sql immutable as $$
  select case when storage.filename(name) like '%.%' then reverse(split_part(reverse(storage.filename(name)), '.', 1)) else '' end
$$;

-- The user's own metadata of an object (supabase-js `upload(path, file, { metadata })`), kept apart from
-- the server's `metadata` (size, type, ETag), as on hosted; `info()` answers it.
alter table storage.objects add column if not exists user_metadata jsonb;

-- ---------------------------------------------------------------- realtime
do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end $$;

-- Realtime Authorization: private channels are allowed by RLS policies on realtime.messages, which
-- the project's migrations write (SELECT to receive, INSERT to send) with realtime.topic().
create schema if not exists realtime;
grant usage on schema realtime to anon, authenticated, service_role;
create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp not null default now(),
  inserted_at timestamp not null default now(),
  id uuid not null default gen_random_uuid(),
  primary key (id, inserted_at)
);
alter table realtime.messages enable row level security;
grant select, insert, update on realtime.messages to anon, authenticated, service_role;
create or replace function realtime.topic() returns text
language sql stable as $$
  select nullif(current_setting('realtime.topic', true), '')::text
$$;
grant execute on function realtime.topic() to anon, authenticated, service_role;

-- Broadcast from the database, as hosted serves it. A message is a row of realtime.messages; every
-- committed INSERT there that has a topic, an event, `private` and a payload is broadcast to the
-- channels of that topic (private ones: to members the SELECT policies let read), by the realtime
-- service (realtime/db-broadcast.ts), which hears of it after commit from local.announce_message().
-- realtime.send and realtime.send_binary write such a row as the caller, so the caller's INSERT
-- policies apply, with realtime.topic set to the message's topic; a failing write is only a WARNING.
-- Rows older than hosted's retention (72 hours, by day) are deleted by the realtime service.
alter table realtime.messages add column if not exists binary_payload bytea;
do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'messages_payload_exclusive'
                 and conrelid = 'realtime.messages'::regclass) then
    alter table realtime.messages add constraint messages_payload_exclusive
      check (payload is null or binary_payload is null) not valid;
  end if;
end $$;
create index if not exists messages_inserted_at_topic_index on realtime.messages (inserted_at desc, topic)
  where extension = 'broadcast' and private is true;

-- The payload gets the message's id under "id" unless it already has one.
create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void language plpgsql as $$
declare
  message_id uuid := gen_random_uuid();
begin
  begin
    perform set_config('realtime.topic', topic, true);
    insert into realtime.messages (id, payload, event, topic, private, extension)
    values (
      message_id,
      case when payload ? 'id' then payload else jsonb_set(payload, '{id}', to_jsonb(message_id)) end,
      event, topic, private, 'broadcast'
    );
  exception when others then
    raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
  end;
end $$;

create or replace function realtime.send_binary(payload bytea, event text, topic text, private boolean default true)
returns void language plpgsql as $$
begin
  begin
    perform set_config('realtime.topic', topic, true);
    insert into realtime.messages (id, binary_payload, event, topic, private, extension)
    values (gen_random_uuid(), payload, event, topic, private, 'broadcast');
  exception when others then
    raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
  end;
end $$;

-- For a row trigger: sends {old_record, record, operation, table, schema} (and the message id) as a
-- private message; anything else is an error that fails the triggering statement.
create or replace function realtime.broadcast_changes(
  topic_name text, event_name text, operation text, table_name text, table_schema text,
  new record, old record, level text default 'ROW'
) returns void language plpgsql as $$
begin
  if level = 'STATEMENT' then
    raise exception 'function can only be triggered for each row, not for each statement';
  end if;
  if operation is null or operation not in ('INSERT', 'UPDATE', 'DELETE') then
    raise exception 'Unexpected operation type: %', operation;
  end if;
  perform realtime.send(
    jsonb_build_object('old_record', old, 'record', new, 'operation', operation, 'table', table_name,
                       'schema', table_schema),
    event_name, topic_name
  );
exception when others then
  raise exception 'Failed to process the row: %', sqlerrm;
end $$;

-- The local service's own signal: NOTIFY is delivered at commit and dropped on rollback. A message
-- too large for a notification (8000 bytes) is announced by its key and read back.
create schema if not exists local;
create or replace function local.announce_message() returns trigger
language plpgsql as $$
declare
  note text;
begin
  note := json_build_object(
    'id', new.id, 'inserted_at', new.inserted_at, 'topic', new.topic, 'event', new.event,
    'private', new.private, 'payload', new.payload::text,
    'binary_payload', encode(new.binary_payload, 'base64')
  )::text;
  if octet_length(note) > 7900 then
    note := json_build_object('id', new.id, 'inserted_at', new.inserted_at, 'truncated', true)::text;
  end if;
  perform pg_notify('local_realtime_broadcast', note);
  return null;
end $$;
create or replace trigger local_announce_message after insert on realtime.messages
  for each row execute function local.announce_message();

-- ---------------------------------------------------------------- public schema defaults (as on Supabase)
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;

-- ---------------------------------------------------------------- local backend's own bookkeeping
create schema if not exists local;
revoke all on schema local from public;

create table if not exists local.schema_migrations (
  version text primary key,
  name text not null,
  applied_at timestamptz not null default now()
);

-- The development mailbox: what would have been e-mailed, for a person to read at /_dev/mailbox.
create table if not exists local.mailbox (
  id bigserial primary key,
  to_email text not null,
  subject text not null,
  body_text text not null,
  link text,
  created_at timestamptz not null default now()
);

-- Failed sign-ins per e-mail address, to slow down password guessing.
create table if not exists local.sign_in_failures (
  email text primary key,
  failures int not null default 0,
  last_failure_at timestamptz not null default now()
);

-- The primary-key columns of a row, as a JSON object.
create or replace function local.primary_key_of(rel oid, row_data jsonb) returns jsonb
language sql stable as $$
  select coalesce(jsonb_object_agg(a.attname, row_data -> a.attname), '{}'::jsonb)
  from pg_index i
  join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
  where i.indrelid = rel and i.indisprimary
$$;

-- Row changes of published tables, announced to the realtime service by NOTIFY (see realtime.ts).
-- Security definer (search_path empty, every name qualified or pg_catalog's): the trigger runs as whoever
-- wrote the row, and a row too large for one NOTIFY reads its primary key through local.primary_key_of,
-- in a schema no API role may use (a person's custom style with its preview was refused 42501 otherwise).
create or replace function local.notify_change() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  payload text;
begin
  payload := json_build_object(
    'schema', tg_table_schema,
    'table', tg_table_name,
    'type', tg_op,
    'commit_timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'record', case when tg_op <> 'DELETE' then row_to_json(new) end,
    'old_record', case when tg_op <> 'INSERT' then row_to_json(old) end
  )::text;
  -- NOTIFY payloads are limited to 8000 bytes; a larger row is announced by its primary key and read back.
  if octet_length(payload) > 7900 then
    payload := json_build_object(
      'schema', tg_table_schema, 'table', tg_table_name, 'type', tg_op, 'truncated', true,
      'commit_timestamp', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'record', case when tg_op <> 'DELETE' then local.primary_key_of(tg_relid, to_jsonb(new)) end,
      'old_record', case when tg_op <> 'INSERT' then local.primary_key_of(tg_relid, to_jsonb(old)) end
    )::text;
  end if;
  perform pg_notify('local_realtime', payload);
  return null;
end $$;
