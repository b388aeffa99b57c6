-- record_generation answers the row a client reads, as before the moderation columns (issue 42). It
-- answered `to_jsonb(row) - 'search'`, so after 20261126130000_moderation.sql added moderation_scores,
-- flagged_at, held_at, removed_at and removed_reason, generate-image's first answer carried five columns
-- its replay of the same request id (the row read back with the client's column list) did not: the two
-- answers of one request differed. A new row has them all empty; the publish path and the owner's library
-- read them where they matter. The function is otherwise 20261124000700_deleted_generations_stay_deleted's.

create or replace function public.record_generation(p_generation jsonb)
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

  -- Deleted by the person while this request was drawing: it is not stored again, and not charged (its
  -- reservation is released by the caller, as for any request that stores nothing).
  if exists (select 1 from private.generation_tombstones t where t.id = v_new.id and t.user_id = v_new.user_id) then
    return jsonb_build_object('created', false, 'deleted', true);
  end if;

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
    'row', to_jsonb(v_row) - 'search' - 'moderation_scores' - 'flagged_at' - 'held_at' - 'removed_at'
             - 'removed_reason',
    'quota', private.quota_state(v_limits));
end
$$;

comment on function public.record_generation(jsonb) is
  'Inserts a generation and commits its quota reservation in one transaction (server only); answers the row without search and the moderation columns.';
