-- Generated images: one row per image, keyed by the client-minted request id so that a replayed request
-- finds its row instead of making another. Owners see and delete their rows; everyone sees published
-- ones. A client may change only is_public and is_saved; the image itself is a Storage object whose
-- name must sit in the owner's folder, so no row can point at (and publish) somebody else's image.

create table public.generations (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  prompt text not null,
  negative_prompt text not null default '',
  style text not null default 'photorealistic',
  quality text not null default 'standard',
  aspect_ratio text not null default '1:1',
  width integer not null default 1024,
  height integer not null default 1024,
  seed bigint,
  provider text not null,
  model text not null,
  image_path text not null,
  is_public boolean not null default false,
  is_saved boolean not null default false,
  created_at timestamptz not null default now(),
  search tsvector generated always as (to_tsvector('english'::regconfig, prompt)) stored,
  constraint generations_prompt_check
    check (char_length(prompt) between 1 and 500 and prompt ~ '[^[:space:]]'),
  constraint generations_negative_prompt_check check (char_length(negative_prompt) <= 300),
  constraint generations_style_check check (public.is_style_id(style)),
  constraint generations_quality_check check (quality in ('standard', 'high', 'ultra')),
  constraint generations_aspect_ratio_check check (aspect_ratio in ('1:1', '16:9', '9:16')),
  constraint generations_size_check check (width between 1 and 8192 and height between 1 and 8192),
  constraint generations_provider_check check (char_length(provider) between 1 and 64),
  constraint generations_model_check check (char_length(model) between 1 and 200),
  -- '<user_id>/<file name>': the owner's own folder in the generations bucket, one level deep.
  constraint generations_image_path_check
    check (image_path ~ ('^' || user_id::text || '/[A-Za-z0-9][A-Za-z0-9._-]*$')),
  constraint generations_image_path_key unique (image_path)
);

comment on table public.generations is 'Generated images; id is the client-minted request id.';
comment on column public.generations.image_path is 'Object name in the generations bucket: <user_id>/<id>.png.';

create index generations_user_id_created_at_idx on public.generations (user_id, created_at desc);
create index generations_published_created_at_idx on public.generations (created_at desc) where is_public;
create index generations_search_idx on public.generations using gin (search);

alter table public.generations enable row level security;

create policy "Anyone can read published generations and owners their own"
  on public.generations for select to anon, authenticated
  using (is_public or user_id = (select auth.uid()));

create policy "Owners can create their own generations"
  on public.generations for insert to authenticated
  with check (user_id = (select auth.uid()));

create policy "Owners can publish or save their own generations"
  on public.generations for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "Owners can delete their own generations"
  on public.generations for delete to authenticated
  using (user_id = (select auth.uid()));

-- The platform grants everything to the API roles by default; take it back and give only what the
-- policies above are meant to decide. created_at and search are the server's, never the client's.
revoke all on table public.generations from anon, authenticated, service_role;
grant select on table public.generations to anon;
grant select, delete on table public.generations to authenticated;
grant insert (id, user_id, prompt, negative_prompt, style, quality, aspect_ratio, width, height, seed,
              provider, model, image_path, is_public, is_saved)
  on table public.generations to authenticated;
grant update (is_public, is_saved) on table public.generations to authenticated;
grant select, insert, update, delete on table public.generations to service_role;

alter publication supabase_realtime add table public.generations;
