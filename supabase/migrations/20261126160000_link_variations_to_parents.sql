-- Variations (issue 46, decision 155): "Vary (subtle)" and "Vary (strong)" make a new generation from one of
-- the person's images, and the new row names the one it was made from. parent_id is the generation it
-- varies, variation how ('subtle': the parent's recipe with the parent's picture as its reference image;
-- 'strong': the parent's recipe with a new seed). A parent that is deleted leaves its variations in place,
-- no longer linked (parent_id set null; variation still says how it was made).
--
-- Only the server makes generations (record_generation, as generate-image calls it); a client can neither
-- write these columns (its update grant stays is_public and is_saved) nor link to another person's image:
-- generate-image refuses a parent that is not the caller's own, and a trigger refuses it again here, so no
-- path can store a link across two people. The columns are read as the row is (owner; a visitor sees a
-- published row with its parent's id, an id that opens nothing of a private parent).

alter table public.generations
  add column parent_id uuid references public.generations (id) on delete set null,
  add column variation text,
  add constraint generations_variation_check check (variation is null or variation in ('subtle', 'strong')),
  add constraint generations_parent_has_variation_check check (parent_id is null or variation is not null),
  add constraint generations_parent_not_itself_check check (parent_id is distinct from id);

comment on column public.generations.parent_id is
  'The generation this one varies (the same owner''s); null when it varies nothing or its parent was deleted.';
comment on column public.generations.variation is 'How it varies its parent: subtle or strong; null when it is no variation.';

-- Children of an image (the large view's lineage), and the foreign key's own set-null on delete.
create index generations_parent_id_idx on public.generations (parent_id) where parent_id is not null;

-- A parent is always the owner's own generation, whoever inserts or updates the row. Security invoker: it
-- runs inside record_generation (security definer) or as the service, which read every row.
create function private.check_generation_parent()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.parent_id is not null and not exists (
    select 1 from public.generations p where p.id = new.parent_id and p.user_id = new.user_id
  ) then
    raise exception 'a variation''s parent must be a generation of the same person' using errcode = '23503';
  end if;
  return new;
end
$$;

revoke all on function private.check_generation_parent() from public;

create trigger generations_check_parent
  before insert or update of parent_id, user_id on public.generations
  for each row execute function private.check_generation_parent();

-- record_generation as 20261126150000_create_custom_styles.sql left it, inserting the parent and the kind
-- of variation too.
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

  if exists (select 1 from private.generation_tombstones t where t.id = v_new.id and t.user_id = v_new.user_id) then
    return jsonb_build_object('created', false, 'deleted', true);
  end if;

  insert into public.generations (id, user_id, prompt, negative_prompt, style, quality, aspect_ratio,
                                  width, height, seed, provider, model, image_path, is_public,
                                  custom_style_id, custom_style_name, parent_id, variation)
  values (v_new.id, v_new.user_id, v_new.prompt, coalesce(v_new.negative_prompt, ''),
          coalesce(v_new.style, 'photorealistic'), coalesce(v_new.quality, 'standard'),
          coalesce(v_new.aspect_ratio, '1:1'), coalesce(v_new.width, 1024), coalesce(v_new.height, 1024),
          v_new.seed, v_new.provider, v_new.model, v_new.image_path, coalesce(v_new.is_public, false),
          v_new.custom_style_id, v_new.custom_style_name, v_new.parent_id, v_new.variation)
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
  'Inserts a generation (with the custom style it was made with, and the parent it varies) and commits its quota reservation in one transaction (server only); answers the row without search and the moderation columns.';
