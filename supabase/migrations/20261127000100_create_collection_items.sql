-- The images of hand-made collections (issue 46, decision 157): one row per image in a collection. Only a
-- person's own image goes into only their own hand-made collection; a smart collection has no items. An
-- item goes with its collection, with its generation and with its account. Items are added and removed,
-- never changed: the outbox adds with supabase-js's upsert ignoring duplicates (insert ... on conflict do
-- nothing, so a resend adds nothing) and removes by collection and generation ids.
--
-- A refusal says which: the collection or the image is gone (23503, the foreign key: the client drops the
-- add, it is moot), is another person's (42501), the collection is smart or full (P0001, with a message).
-- At most 10,000 images per collection, counted once per statement and collection, under a lock per
-- collection, so two devices adding at once cannot pass it.

create table public.collection_items (
  collection_id uuid not null references public.collections (id) on delete cascade,
  generation_id uuid not null references public.generations (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  added_at timestamptz not null default now(),
  primary key (collection_id, generation_id),
  -- A moment a device can read back ('infinity' is a timestamptz, and no Date).
  constraint collection_items_added_at_check check (isfinite(added_at))
);

comment on table public.collection_items is 'The images of a person''s hand-made collections.';
comment on column public.collection_items.added_at is
  'When the image was added: the device''s moment when it sent one (an add made offline keeps it), else the server''s.';

-- The person's items (catch-up reads them all, by user, in key order) and the cascade of an account;
-- the cascade of a generation.
create index collection_items_user_id_idx on public.collection_items (user_id, collection_id, generation_id);
create index collection_items_generation_id_idx on public.collection_items (generation_id);

-- The collection and the image must be the item's owner's, and the collection hand-made. A collection or
-- image that is not there is left to the foreign keys (23503), so the client can tell "gone" from
-- "refused". Security definer: it reads the two rows whoever writes (the service role too).
create function private.collection_items_belong_together()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_owner uuid;
  v_smart boolean;
begin
  select c.user_id, c.filter is not null into v_owner, v_smart from public.collections c where c.id = new.collection_id;
  if found then
    if v_owner <> new.user_id then
      raise exception 'Images can be added only to their owner''s own collections' using errcode = '42501';
    end if;
    if v_smart then
      raise exception 'A smart collection gathers its images by its filter; none can be added to it'
        using errcode = 'P0001';
    end if;
  end if;
  select g.user_id into v_owner from public.generations g where g.id = new.generation_id;
  if found and v_owner <> new.user_id then
    raise exception 'Only the person''s own images can be added to their collections' using errcode = '42501';
  end if;
  return new;
end
$$;

-- At most 10,000 images per collection, after each statement: one count per collection it added to.
create function private.collection_items_hold_their_cap()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_collection uuid;
begin
  for v_collection in select distinct a.collection_id from added a order by 1 loop
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('collection_items:' || v_collection::text, 0));
    if (select count(*) from public.collection_items i where i.collection_id = v_collection) > 10000 then
      raise exception 'A collection can hold at most 10000 images' using errcode = 'P0001';
    end if;
  end loop;
  return null;
end
$$;

revoke all on function private.collection_items_belong_together() from public;
revoke all on function private.collection_items_hold_their_cap() from public;

create trigger collection_items_belong_together
  before insert on public.collection_items
  for each row execute function private.collection_items_belong_together();

create trigger collection_items_hold_their_cap
  after insert on public.collection_items
  referencing new table as added
  for each statement execute function private.collection_items_hold_their_cap();

alter table public.collection_items enable row level security;

create policy "Owners can read the images of their own collections"
  on public.collection_items for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Owners can add their own images to their own collections"
  on public.collection_items for insert to authenticated
  with check (user_id = (select auth.uid()));

create policy "Owners can take images out of their own collections"
  on public.collection_items for delete to authenticated
  using (user_id = (select auth.uid()));

-- Added (with the device's added_at, or the server's), read and removed; never updated.
revoke all on table public.collection_items from anon, authenticated, service_role;
grant select, delete on table public.collection_items to authenticated;
grant insert (collection_id, generation_id, user_id, added_at) on table public.collection_items to authenticated;
grant select, insert, delete on table public.collection_items to service_role;

alter publication supabase_realtime add table public.collection_items;
