-- Moderation (issue 42): operators, the reasons a report may give, reports, the terms operators add to the
-- prompt check, the record of what operators did, suspensions from publishing, and the columns a
-- generation carries for them. Written by the calls in 20261126130100_moderation_calls.sql and by the
-- publish-generation function (service role); read by operators, and by the owner for their own row.
--
-- Publishing moves to the server: a client may no longer set is_public from false to true (the
-- publish-generation function checks the prompt and the image first, then publishes with the service
-- role). Unpublishing stays the owner's REST patch.

-- An operator is a person whose app_metadata says so. app_metadata is written only with the service role
-- (the auth admin API, `npm run operator`); a person's own updateUser cannot touch it. The token's claim
-- is checked against auth.users too, so a revoked operator loses the role at once rather than when the
-- token expires. Security definer: clients cannot read auth.users.
create function public.is_operator()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when coalesce(auth.jwt() -> 'app_metadata' ->> 'role', '') = 'operator' then exists (
      select 1 from auth.users u
      where u.id = auth.uid() and coalesce(u.raw_app_meta_data ->> 'role', '') = 'operator')
    else false
  end
$$;
comment on function public.is_operator() is
  'Whether the caller is an operator: app_metadata.role = operator in the token and still in auth.users.';
revoke all on function public.is_operator() from public;
grant execute on function public.is_operator() to anon, authenticated, service_role;

-- What a generation carries for moderation. A row is in the gallery when
-- is_public and held_at is null and removed_at is null.
alter table public.generations
  add column moderation_scores jsonb,
  add column flagged_at timestamptz,
  add column held_at timestamptz,
  add column removed_at timestamptz,
  add column removed_reason text,
  add constraint generations_moderation_scores_check
    check (moderation_scores is null or jsonb_typeof(moderation_scores) = 'object'),
  add constraint generations_removed_reason_check
    check (removed_reason is null or char_length(removed_reason) between 1 and 500);

comment on column public.generations.moderation_scores is 'The image check''s scores per class, kept for review.';
comment on column public.generations.flagged_at is 'When the image check refused to publish this image.';
comment on column public.generations.held_at is 'When enough different people reported it: out of the gallery until reviewed.';
comment on column public.generations.removed_at is 'When an operator took it out of the gallery (removed_reason says why).';

-- The reasons a report may give: the content policy's categories, as REPORT_REASONS in
-- supabase/functions/_shared/vocabulary/moderation.ts (a db test proves the two lists equal).
create table public.report_reasons (
  reason text primary key,
  position smallint not null unique
);
insert into public.report_reasons (reason, position) values
  ('minors', 1), ('sexual', 2), ('real-people', 3), ('violence', 4), ('hate', 5),
  ('harassment', 6), ('deception', 7), ('infringement', 8), ('illegal', 9);

alter table public.report_reasons enable row level security;
create policy "Anyone can read the reasons a report may give"
  on public.report_reasons for select to anon, authenticated
  using (true);
revoke all on table public.report_reasons from anon, authenticated, service_role;
grant select on table public.report_reasons to anon, authenticated, service_role;

-- One report per person per image. Written only by report_generation; read only by operators. A report
-- an operator has acted on keeps its row, with reviewed_at set, and no longer counts towards a hold.
create table public.generation_reports (
  generation_id uuid not null references public.generations (id) on delete cascade,
  reporter_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  reason text not null references public.report_reasons (reason),
  note text,
  created_at timestamptz not null default now(),
  reviewed_at timestamptz,
  primary key (generation_id, reporter_id),
  constraint generation_reports_note_check check (note is null or char_length(note) between 1 and 500)
);
create index generation_reports_reporter_id_idx on public.generation_reports (reporter_id);

alter table public.generation_reports enable row level security;
create policy "Operators can read every report"
  on public.generation_reports for select to authenticated
  using ((select public.is_operator()));
revoke all on table public.generation_reports from anon, authenticated, service_role;
grant select on table public.generation_reports to authenticated, service_role;

-- The ids of the images the caller has reported: hidden from them in every gallery read at once. Security
-- definer because only operators read reports; a person learns nothing here but their own reports.
create function public.my_reported_generations()
returns uuid[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(r.generation_id), '{}')
  from public.generation_reports r
  where r.reporter_id = auth.uid()
$$;
comment on function public.my_reported_generations() is
  'Ids of the generations the caller reported (none for a visitor); the gallery hides them from the caller.';
revoke all on function public.my_reported_generations() from public;
grant execute on function public.my_reported_generations() to anon, authenticated, service_role;

-- Extra terms of the prompt check, kept by operators; the server reads them with the service role. A
-- term is stored lowercased and trimmed (the trigger below), 1 to 64 characters.
create table public.moderation_terms (
  term text primary key,
  added_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint moderation_terms_term_check
    check (char_length(term) between 1 and 64 and term = lower(term) and term !~ '^\s' and term !~ '\s$')
);

create function private.normalize_moderation_term()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.term := lower(regexp_replace(new.term, '^\s+|\s+$', '', 'g'));
  return new;
end
$$;
create trigger moderation_terms_normalize
  before insert on public.moderation_terms
  for each row execute function private.normalize_moderation_term();

alter table public.moderation_terms enable row level security;
create policy "Operators can read the extra terms"
  on public.moderation_terms for select to authenticated
  using ((select public.is_operator()));
create policy "Operators can add extra terms"
  on public.moderation_terms for insert to authenticated
  with check ((select public.is_operator()) and added_by = (select auth.uid()));
create policy "Operators can remove extra terms"
  on public.moderation_terms for delete to authenticated
  using ((select public.is_operator()));
revoke all on table public.moderation_terms from anon, authenticated, service_role;
grant select, delete on table public.moderation_terms to authenticated;
grant insert (term) on table public.moderation_terms to authenticated;
grant select on table public.moderation_terms to service_role;

-- What operators did: who, when, what and why. Written only by moderate_generation; read by operators.
-- generation_id has no foreign key: the record outlives an image its owner deletes.
create table public.moderation_actions (
  id bigint generated always as identity primary key,
  generation_id uuid not null,
  owner_id uuid not null references auth.users (id) on delete cascade,
  operator_id uuid references auth.users (id) on delete set null,
  action text not null,
  reason text,
  suspended_until timestamptz,
  created_at timestamptz not null default now(),
  constraint moderation_actions_action_check check (action in ('restore', 'unpublish', 'suspend')),
  constraint moderation_actions_reason_check check (reason is null or char_length(reason) between 1 and 500),
  constraint moderation_actions_suspended_until_check check ((action = 'suspend') = (suspended_until is not null))
);
create index moderation_actions_generation_id_idx on public.moderation_actions (generation_id, created_at desc);
create index moderation_actions_owner_id_idx on public.moderation_actions (owner_id);

alter table public.moderation_actions enable row level security;
create policy "Operators can read every moderation action"
  on public.moderation_actions for select to authenticated
  using ((select public.is_operator()));
revoke all on table public.moderation_actions from anon, authenticated, service_role;
grant select on table public.moderation_actions to authenticated, service_role;

-- Accounts suspended from publishing until a time. Written only by moderate_generation; the person reads
-- their own, operators read all.
create table public.publishing_suspensions (
  user_id uuid primary key references auth.users (id) on delete cascade,
  until timestamptz not null,
  reason text not null,
  by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint publishing_suspensions_reason_check check (char_length(reason) between 1 and 500)
);

alter table public.publishing_suspensions enable row level security;
create policy "People read their own suspension and operators every one"
  on public.publishing_suspensions for select to authenticated
  using (user_id = (select auth.uid()) or (select public.is_operator()));
revoke all on table public.publishing_suspensions from anon, authenticated, service_role;
grant select on table public.publishing_suspensions to authenticated, service_role;

-- Publishing is the server's. A row becomes public (is_public false to true, or inserted true) only when
-- the statement runs as the service role (the publish-generation function, after its checks) or inside a
-- security definer function of this schema (record_generation, an operator's restore); a client's own
-- patch is refused. For any role, a row an operator removed is not published again, and nothing of a
-- suspended owner is published: an update is refused, and an insert (a generation made while the owner
-- is suspended, with publish-by-default on) is stored private, so the image is still made.
-- Security invoker on purpose: current_user is then the role running the statement.
create function private.guard_publishing()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_until timestamptz;
begin
  if not new.is_public or (tg_op = 'UPDATE' and old.is_public) then
    return new;
  end if;
  if current_user in ('anon', 'authenticated') then
    raise exception 'publishing goes through the publish-generation function' using errcode = '42501',
      hint = 'Publish with the publish-generation function; a client may only unpublish.';
  end if;
  if new.removed_at is not null then
    raise exception 'removed_by_operator' using errcode = 'PT403',
      detail = 'An operator removed this image from the gallery; it cannot be published again.';
  end if;
  select s.until into v_until
  from public.publishing_suspensions s
  where s.user_id = new.user_id and s.until > now();
  if v_until is not null then
    if tg_op = 'INSERT' then
      new.is_public := false;
      return new;
    end if;
    raise exception 'publishing_suspended' using errcode = 'PT403',
      detail = 'Publishing is suspended for this account until ' || to_char(v_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '.';
  end if;
  return new;
end
$$;
comment on function private.guard_publishing() is
  'Refuses publishing except by the service role or a definer function; never for a removed row or a suspended owner.';

create trigger generations_guard_publishing
  before insert or update of is_public on public.generations
  for each row execute function private.guard_publishing();
