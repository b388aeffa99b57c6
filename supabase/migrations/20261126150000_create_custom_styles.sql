-- Custom styles (issue 45, decision 152): a person's own styles beside the 27 built-in ones. A style holds
-- its name, the words it adds to the prompt, a negative prompt, the built-in style it draws on, a default
-- quality and aspect ratio, and a preview taken from one of the person's images (a small JPEG data: URL,
-- so it shows offline on every device with no object to fetch). The id is minted by the client, so a
-- style made offline keeps its id when the outbox sends it and a resend is an upsert.
--
-- Tier rule: making and changing styles is the premium tier's (the pricing page's "Pro" plan lists custom
-- styles), as the quota reads the tier (public.custom_styles_allowed). A person whose tier drops keeps
-- reading, using and deleting their styles but can neither make new ones nor change them.
--
-- A generation made with one says so: generations.custom_style_id and custom_style_name, written by
-- record_generation from what generate-image applied (the style's words are added to the prompt where the
-- prompt is validated, so the stored prompt is the one drawn).

create table public.custom_styles (
  id uuid primary key,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  prompt text not null,
  negative_prompt text not null default '',
  base_style text not null default 'photorealistic',
  quality text not null default 'high',
  aspect_ratio text not null default '1:1',
  preview text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The limits of supabase/functions/_shared/vocabulary/custom-styles.ts (a db test proves them equal).
  constraint custom_styles_name_check check (char_length(name) between 1 and 40 and name = btrim(name)),
  constraint custom_styles_prompt_check check (char_length(prompt) between 1 and 200 and prompt = btrim(prompt)),
  constraint custom_styles_negative_prompt_check check (char_length(negative_prompt) <= 200),
  constraint custom_styles_base_style_check check (public.is_style_id(base_style)),
  constraint custom_styles_quality_check check (quality in ('standard', 'high', 'ultra')),
  constraint custom_styles_aspect_ratio_check check (aspect_ratio in ('1:1', '16:9', '9:16')),
  constraint custom_styles_preview_check check (
    preview is null or (char_length(preview) <= 150000 and preview ~ '^data:image/(jpeg|png|webp);base64,[A-Za-z0-9+/=]+$')
  )
);

comment on table public.custom_styles is 'A person''s own styles (premium): words, negative prompt, defaults, preview.';

create index custom_styles_user_id_idx on public.custom_styles (user_id, updated_at);

create trigger custom_styles_touch_updated_at
  before insert or update on public.custom_styles
  for each row execute function private.touch_updated_at();

-- Whether the caller may make or change custom styles: their tier, as the quota reads it, is premium.
-- Security invoker: the caller reads only their own limits row (its select policy), which is all it needs.
create function public.custom_styles_allowed()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    (select l.subscription_tier = 'premium' from public.user_daily_limits l where l.user_id = (select auth.uid())),
    false)
$$;

comment on function public.custom_styles_allowed() is
  'True when the caller''s tier (user_daily_limits.subscription_tier) is premium: they may make and change custom styles.';

revoke all on function public.custom_styles_allowed() from public;
grant execute on function public.custom_styles_allowed() to authenticated, service_role;

alter table public.custom_styles enable row level security;

create policy "Owners can read their own custom styles"
  on public.custom_styles for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Premium owners can create custom styles"
  on public.custom_styles for insert to authenticated
  with check (user_id = (select auth.uid()) and (select public.custom_styles_allowed()));

create policy "Premium owners can change their custom styles"
  on public.custom_styles for update to authenticated
  using (user_id = (select auth.uid()) and (select public.custom_styles_allowed()))
  with check (user_id = (select auth.uid()) and (select public.custom_styles_allowed()));

create policy "Owners can delete their own custom styles"
  on public.custom_styles for delete to authenticated
  using (user_id = (select auth.uid()));

revoke all on table public.custom_styles from anon, authenticated, service_role;
grant select, delete on table public.custom_styles to authenticated;
grant insert (id, user_id, name, prompt, negative_prompt, base_style, quality, aspect_ratio, preview)
  on table public.custom_styles to authenticated;
grant update (name, prompt, negative_prompt, base_style, quality, aspect_ratio, preview)
  on table public.custom_styles to authenticated;
grant select, insert, update, delete on table public.custom_styles to service_role;

alter publication supabase_realtime add table public.custom_styles;

-- The generation row names the custom style it was made with (no foreign key: the style may be deleted
-- later, and the row keeps what it was made with).
alter table public.generations
  add column custom_style_id uuid,
  add column custom_style_name text,
  add constraint generations_custom_style_name_check check (
    custom_style_name is null or char_length(custom_style_name) between 1 and 40
  );

-- record_generation as 20261126130300_record_generation_answers_the_client_row.sql left it, inserting the
-- two custom style columns too.
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
                                  custom_style_id, custom_style_name)
  values (v_new.id, v_new.user_id, v_new.prompt, coalesce(v_new.negative_prompt, ''),
          coalesce(v_new.style, 'photorealistic'), coalesce(v_new.quality, 'standard'),
          coalesce(v_new.aspect_ratio, '1:1'), coalesce(v_new.width, 1024), coalesce(v_new.height, 1024),
          v_new.seed, v_new.provider, v_new.model, v_new.image_path, coalesce(v_new.is_public, false),
          v_new.custom_style_id, v_new.custom_style_name)
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
  'Inserts a generation (with the custom style it was made with) and commits its quota reservation in one transaction (server only); answers the row without search and the moderation columns.';
