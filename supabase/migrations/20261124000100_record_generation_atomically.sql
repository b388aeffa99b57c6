-- The history row and the quota charge of a generation land together or not at all. Until now the
-- generate function inserted the row, then called quota_commit in a second request: a crash (or a lost
-- connection) between the two left a stored, visible image whose reservation was never counted, and
-- since a replay found the row it charged nothing either, so the day's limit could be passed (a 6th
-- image on a 5-a-day tier was seen). record_generation does both in one transaction, under the same
-- row lock as the quota_* functions (limits row first, as they take it, so they cannot deadlock).
--
-- Exactly once: a row whose id already exists is not inserted again and charges nothing (created:
-- false; the caller replays the stored row). The charge is the request's reservation, removed as it is
-- counted, so a later quota_commit of the same id changes nothing.
-- A user deleted while the generation was in flight fails with foreign_key_violation (23503) on the
-- limits row or the insert; the generate function answers that with auth_required (sign in again).

create function public.record_generation(p_generation jsonb)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_new public.generations;
  v_row public.generations;
  v_limits public.user_daily_limits;
  v_committed boolean;
begin
  if p_generation is null or jsonb_typeof(p_generation) <> 'object' then
    raise exception 'record_generation needs a generation object' using errcode = '22004';
  end if;
  v_new := jsonb_populate_record(null::public.generations, p_generation);
  if v_new.id is null or v_new.user_id is null then
    raise exception 'record_generation needs an id and a user id' using errcode = '22004';
  end if;

  v_limits := private.limits_for_update(v_new.user_id);

  insert into public.generations (id, user_id, prompt, negative_prompt, style, quality, aspect_ratio,
                                  width, height, seed, provider, model, image_path, is_public)
  values (v_new.id, v_new.user_id, v_new.prompt, coalesce(v_new.negative_prompt, ''),
          coalesce(v_new.style, 'photorealistic'), coalesce(v_new.quality, 'standard'),
          coalesce(v_new.aspect_ratio, '1:1'), coalesce(v_new.width, 1024), coalesce(v_new.height, 1024),
          v_new.seed, v_new.provider, v_new.model, v_new.image_path, coalesce(v_new.is_public, false))
  on conflict (id) do nothing
  returning * into v_row;
  if not found then
    return jsonb_build_object('created', false);
  end if;

  delete from public.quota_reservations r where r.request_id = v_new.id and r.user_id = v_new.user_id;
  v_committed := found;
  if v_committed then
    update public.user_daily_limits
       set generations_today = generations_today + 1, updated_at = now()
     where user_id = v_new.user_id
    returning * into v_limits;
  end if;

  return jsonb_build_object(
    'created', true,
    'committed', v_committed,
    'row', to_jsonb(v_row) - 'search',
    'quota', private.quota_state(v_limits));
end
$$;

comment on function public.record_generation(jsonb) is
  'Inserts a generation and commits its quota reservation in one transaction (server only).';

revoke all on function public.record_generation(jsonb) from public, anon, authenticated, service_role;
grant execute on function public.record_generation(jsonb) to service_role;
