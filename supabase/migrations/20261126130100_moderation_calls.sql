-- The calls of moderation (issue 42), each a security definer function because the tables it writes
-- are closed to clients: a person reports an image (report_generation); operators read the queue
-- (moderation_queue) and act on an image (moderate_generation). Every operator call checks is_operator()
-- first. Errors are SQLSTATEs PostgREST turns into statuses (listed in
-- supabase/functions/_shared/vocabulary/moderation.ts): PT404 is 404, 22023 and 22001 are 400, 42501 is
-- 401 for a visitor and 403 for a signed-in person.

-- A report by the caller: once per person per image, on an image in the gallery that is not the caller's.
-- The same person reporting again changes nothing and gets the same answer. The third different reporter
-- (since the last review) holds the image: out of the gallery until an operator reviews it. The row is
-- locked first, so reports arriving together are counted one after another.
create function public.report_generation(p_generation_id uuid, p_reason text, p_note text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_me uuid := auth.uid();
  v_note text := nullif(regexp_replace(p_note, '^\s+|\s+$', '', 'g'), '');
  v_gen public.generations;
  v_report public.generation_reports;
begin
  if v_me is null then
    raise exception 'sign in to report an image' using errcode = '42501';
  end if;
  if p_reason is null or not exists (select 1 from public.report_reasons r where r.reason = p_reason) then
    raise exception 'unknown report reason' using errcode = '22023',
      detail = 'The reason must be one of: ' || (select string_agg(r.reason, ', ' order by r.position) from public.report_reasons r) || '.';
  end if;
  if char_length(v_note) > 500 then
    raise exception 'report note too long' using errcode = '22001',
      detail = 'A note may have at most 500 characters.';
  end if;

  select * into v_gen from public.generations g where g.id = p_generation_id for update;
  select * into v_report from public.generation_reports r
   where r.generation_id = p_generation_id and r.reporter_id = v_me;
  if v_report.generation_id is null then
    if v_gen.id is null or not (v_gen.is_public and v_gen.held_at is null and v_gen.removed_at is null) then
      raise exception 'no published image with this id' using errcode = 'PT404';
    end if;
    if v_gen.user_id = v_me then
      raise exception 'you cannot report your own image' using errcode = '22023',
        detail = 'Unpublish or delete your own image instead.';
    end if;
    insert into public.generation_reports (generation_id, reporter_id, reason, note)
    values (p_generation_id, v_me, p_reason, v_note)
    returning * into v_report;
    if (select count(*) from public.generation_reports r
         where r.generation_id = p_generation_id and r.reviewed_at is null) >= 3 then
      update public.generations set held_at = now() where id = p_generation_id and held_at is null;
    end if;
  end if;
  return jsonb_build_object(
    'generation_id', v_report.generation_id,
    'reason', v_report.reason,
    'reported_at', v_report.created_at);
end
$$;
comment on function public.report_generation(uuid, text, text) is
  'Reports a gallery image once per person (a reason of report_reasons, a note of at most 500 characters); three reporters hold it.';
revoke all on function public.report_generation(uuid, text, text) from public, anon, service_role;
grant execute on function public.report_generation(uuid, text, text) to authenticated;

-- Raises 42501 unless the caller is an operator; the first statement of every operator call.
create function private.require_operator()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.is_operator() then
    raise exception 'only operators may do this' using errcode = '42501';
  end if;
end
$$;
revoke all on function private.require_operator() from public;

-- The images waiting for an operator: reported since their last review, flagged by the image check, or
-- held, and not removed; the most recent event (report, flag or hold) first.
create function public.moderation_queue(p_limit integer default 100)
returns table (
  generation_id uuid,
  created_at timestamptz,
  prompt text,
  negative_prompt text,
  style text,
  width integer,
  height integer,
  image_path text,
  owner_id uuid,
  owner_email text,
  is_public boolean,
  flagged_at timestamptz,
  held_at timestamptz,
  moderation_scores jsonb,
  report_count integer,
  reasons text[],
  reports jsonb,
  last_event_at timestamptz,
  owner_suspended_until timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  perform private.require_operator();
  return query
    with open_reports as (
      select r.generation_id as id, count(*)::integer as n,
             array_agg(distinct r.reason order by r.reason) as reasons,
             jsonb_agg(jsonb_build_object('reason', r.reason, 'note', r.note, 'reporter_id', r.reporter_id,
                                          'created_at', r.created_at) order by r.created_at desc) as reports,
             max(r.created_at) as last_at
      from public.generation_reports r
      where r.reviewed_at is null
      group by r.generation_id
    )
    select g.id, g.created_at, g.prompt, g.negative_prompt, g.style, g.width, g.height, g.image_path,
           g.user_id, u.email::text, g.is_public, g.flagged_at, g.held_at, g.moderation_scores,
           coalesce(o.n, 0), coalesce(o.reasons, '{}'::text[]), coalesce(o.reports, '[]'::jsonb),
           greatest(o.last_at, g.flagged_at, g.held_at), s.until
    from public.generations g
    left join open_reports o on o.id = g.id
    left join auth.users u on u.id = g.user_id
    left join public.publishing_suspensions s on s.user_id = g.user_id and s.until > now()
    where g.removed_at is null
      and (o.id is not null or g.flagged_at is not null or g.held_at is not null)
    order by greatest(o.last_at, g.flagged_at, g.held_at) desc, g.id desc
    limit least(greatest(coalesce(p_limit, 100), 1), 500);
end
$$;
comment on function public.moderation_queue(integer) is
  'Operators only: reported, flagged or held images not removed, newest event first, with reports, scores and owner.';
revoke all on function public.moderation_queue(integer) from public, anon, service_role;
grant execute on function public.moderation_queue(integer) to authenticated;

-- An operator's decision on one image, recorded in moderation_actions with who, when, what and why:
--   restore:   clears the hold, the flag and any removal, marks its reports reviewed, and publishes it
--              again if it was flagged or removed (unless its owner is suspended: then it stays private);
--   unpublish: takes it out of the gallery with a reason its owner reads (removed_at, removed_reason) and
--              marks its reports reviewed; the owner cannot publish it again;
--   suspend:   unpublish, and suspend the owner from publishing until p_suspend_until.
-- Unpublish and suspend need a reason (1 to 500 characters); restore may give one.
create function public.moderate_generation(
  p_generation_id uuid,
  p_action text,
  p_reason text,
  p_suspend_until timestamptz default null
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_reason text := nullif(regexp_replace(p_reason, '^\s+|\s+$', '', 'g'), '');
  v_gen public.generations;
  v_suspended boolean;
begin
  perform private.require_operator();
  if p_action is null or p_action not in ('restore', 'unpublish', 'suspend') then
    raise exception 'unknown moderation action' using errcode = '22023',
      detail = 'The action must be one of: restore, unpublish, suspend.';
  end if;
  if v_reason is null and p_action <> 'restore' then
    raise exception 'a reason is needed' using errcode = '22023',
      detail = 'Say why: the owner reads it on their image.';
  end if;
  if char_length(v_reason) > 500 then
    raise exception 'reason too long' using errcode = '22001', detail = 'A reason may have at most 500 characters.';
  end if;
  if p_action = 'suspend' and (p_suspend_until is null or p_suspend_until <= now()) then
    raise exception 'a suspension needs an end in the future' using errcode = '22023';
  end if;
  if p_action <> 'suspend' and p_suspend_until is not null then
    raise exception 'only a suspension has an end' using errcode = '22023';
  end if;

  select * into v_gen from public.generations g where g.id = p_generation_id for update;
  if v_gen.id is null then
    raise exception 'no image with this id' using errcode = 'PT404';
  end if;

  if p_action = 'restore' then
    v_suspended := exists (select 1 from public.publishing_suspensions s
                           where s.user_id = v_gen.user_id and s.until > now());
    update public.generations g
       set held_at = null, flagged_at = null, removed_at = null, removed_reason = null,
           is_public = g.is_public or (not v_suspended and (g.flagged_at is not null or g.removed_at is not null))
     where g.id = v_gen.id
    returning * into v_gen;
  else
    update public.generations g
       set is_public = false, held_at = null, removed_at = now(), removed_reason = v_reason
     where g.id = v_gen.id
    returning * into v_gen;
  end if;
  if p_action = 'suspend' then
    insert into public.publishing_suspensions as s (user_id, until, reason, by)
    values (v_gen.user_id, p_suspend_until, v_reason, auth.uid())
    on conflict (user_id) do update
      set until = excluded.until, reason = excluded.reason, by = excluded.by, created_at = now();
  end if;

  update public.generation_reports r set reviewed_at = now()
   where r.generation_id = v_gen.id and r.reviewed_at is null;
  insert into public.moderation_actions (generation_id, owner_id, operator_id, action, reason, suspended_until)
  values (v_gen.id, v_gen.user_id, auth.uid(), p_action, v_reason, p_suspend_until);

  return jsonb_build_object(
    'generation_id', v_gen.id,
    'action', p_action,
    'is_public', v_gen.is_public,
    'held_at', v_gen.held_at,
    'flagged_at', v_gen.flagged_at,
    'removed_at', v_gen.removed_at,
    'removed_reason', v_gen.removed_reason,
    'suspended_until', p_suspend_until);
end
$$;
comment on function public.moderate_generation(uuid, text, text, timestamptz) is
  'Operators only: restore, unpublish or suspend (unpublish and suspend the owner from publishing), recorded in moderation_actions.';
revoke all on function public.moderate_generation(uuid, text, text, timestamptz) from public, anon, service_role;
grant execute on function public.moderate_generation(uuid, text, text, timestamptz) to authenticated;
