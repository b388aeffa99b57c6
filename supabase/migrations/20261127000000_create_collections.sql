-- Collections (issue 46, decision 157): a person's own named sets of their images. A collection is either
-- hand-made (filter null: the images chosen for it are rows of public.collection_items, next migration) or
-- smart (filter: a saved filter over the recipe, evaluated on each device over what it holds, so it has no
-- items). The id is minted by the client, so a collection made offline keeps its id when the outbox sends
-- it, and every save (a rename, a changed filter) is the same upsert on id.
--
-- The limits are those of supabase/functions/_shared/vocabulary/collections.ts, repeated here as checks
-- (a db test proves the SQL and the vocabulary agree): a name of 1 to 60 characters with no white space
-- at either end (white space as JavaScript's trim() reads it), a filter as validateCollectionFilter takes
-- it, at most 200 collections per person (counted by a trigger, under a lock per person, so two devices
-- saving at once cannot pass it). A collection keeps its kind: hand-made stays hand-made (its items would
-- mean nothing to a smart one), smart stays smart.

-- White space is JavaScript's (String.prototype.trim: the Zs space separators, tab, vertical tab, form
-- feed, the byte order mark and the line terminators), written out as a bracket expression in both
-- functions below. \s is not used: what it matches depends on the database's locale.
create function public.is_collection_name(p_name text)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(
    char_length(p_name) between 1 and 60
      and p_name !~ ('^' || '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]')
      and p_name !~ ('[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]' || '$'),
    false)
$$;

comment on function public.is_collection_name(text) is
  'True for a collection name as validateCollectionName takes it, already trimmed: 1 to 60 characters, no white space at either end.';

-- validateCollectionFilter (collections.ts), check for check. plpgsql so that each test runs only once the
-- one before it has passed (withinDays is read as a number only when it is one).
create function public.is_collection_filter(p_filter jsonb)
returns boolean
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  v_day constant text := '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';
  v_value jsonb;
  v_text text;
  v_days numeric;
begin
  if p_filter is null or jsonb_typeof(p_filter) <> 'object' then
    return false;
  end if;
  if exists (
    select 1 from jsonb_object_keys(p_filter) k
     where k not in ('text', 'style', 'quality', 'aspectRatio', 'engine', 'saved', 'published', 'from', 'to',
                     'withinDays')
  ) or p_filter = '{}'::jsonb then
    return false;
  end if;
  if p_filter ? 'text' then
    v_value := p_filter -> 'text';
    if jsonb_typeof(v_value) <> 'string' then
      return false;
    end if;
    v_text := v_value #>> '{}';
    -- Some character that is not white space, and at most 200 (code points, as countChars counts them).
    if v_text !~ '[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]'
       or char_length(v_text) > 200 then
      return false;
    end if;
  end if;
  if p_filter ? 'style' and not (jsonb_typeof(p_filter -> 'style') = 'string'
                                 and public.is_style_id(p_filter ->> 'style')) then
    return false;
  end if;
  if p_filter ? 'quality' and not (jsonb_typeof(p_filter -> 'quality') = 'string'
                                   and p_filter ->> 'quality' in ('standard', 'high', 'ultra')) then
    return false;
  end if;
  if p_filter ? 'aspectRatio' and not (jsonb_typeof(p_filter -> 'aspectRatio') = 'string'
                                       and p_filter ->> 'aspectRatio' in ('1:1', '16:9', '9:16')) then
    return false;
  end if;
  if p_filter ? 'engine' and not (jsonb_typeof(p_filter -> 'engine') = 'string'
                                  and p_filter ->> 'engine' ~ '^[a-z0-9][a-z0-9-]{0,39}$') then
    return false;
  end if;
  if (p_filter ? 'saved' and jsonb_typeof(p_filter -> 'saved') <> 'boolean')
     or (p_filter ? 'published' and jsonb_typeof(p_filter -> 'published') <> 'boolean') then
    return false;
  end if;
  if (p_filter ? 'from' and not (jsonb_typeof(p_filter -> 'from') = 'string' and p_filter ->> 'from' ~ v_day))
     or (p_filter ? 'to' and not (jsonb_typeof(p_filter -> 'to') = 'string' and p_filter ->> 'to' ~ v_day)) then
    return false;
  end if;
  if (p_filter ->> 'from') collate "C" > (p_filter ->> 'to') collate "C" then
    return false;
  end if;
  if p_filter ? 'withinDays' then
    if jsonb_typeof(p_filter -> 'withinDays') <> 'number' then
      return false;
    end if;
    v_days := (p_filter -> 'withinDays')::numeric;
    if v_days < 0 or v_days > 4000 then
      return false;
    end if;
    -- JavaScript reads a JSON number as a double: 7.0 and 7.00000000000000000001 are both the integer 7.
    return v_days::float8 = trunc(v_days::float8) and v_days::float8 between 1 and 3650;
  end if;
  return true;
end
$$;

comment on function public.is_collection_filter(jsonb) is
  'True for a smart collection''s filter as validateCollectionFilter takes it: known keys only, at least one, each of its type and range.';

revoke all on function public.is_collection_name(text) from public;
revoke all on function public.is_collection_filter(jsonb) from public;
-- A check constraint runs its functions with the privileges of whoever writes.
grant execute on function public.is_collection_name(text) to anon, authenticated, service_role;
grant execute on function public.is_collection_filter(jsonb) to anon, authenticated, service_role;

create table public.collections (
  id uuid primary key,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  filter jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint collections_name_check check (public.is_collection_name(name)),
  constraint collections_filter_check check (filter is null or public.is_collection_filter(filter))
);

comment on table public.collections is
  'A person''s collections of their images: hand-made (filter null, items in collection_items) or smart (a saved filter).';
comment on column public.collections.filter is
  'null: hand-made. Otherwise the smart collection''s CollectionFilter (vocabulary/collections.ts), as JSON.';

create index collections_user_id_idx on public.collections (user_id, updated_at);

create trigger collections_touch_updated_at
  before insert or update on public.collections
  for each row execute function private.touch_updated_at();

-- The rules no check constraint can hold: at most 200 collections per person (an upsert of a collection
-- that is already there is a save, not one more), and a collection keeps its id, its owner and its kind.
-- Security definer: it counts the person's collections whoever writes (the service role too).
create function private.collections_keep_their_rules()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if exists (select 1 from public.collections c where c.id = new.id) then
      return new; -- an upsert of a saved collection: ON CONFLICT makes it an update (or refuses it)
    end if;
    perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('collections:' || new.user_id::text, 0));
    if (select count(*) from public.collections c where c.user_id = new.user_id) >= 200 then
      raise exception 'A person can have at most 200 collections' using errcode = 'P0001';
    end if;
    return new;
  end if;
  if new.id <> old.id or new.user_id <> old.user_id then
    raise exception 'A collection keeps its id and its owner' using errcode = 'P0001';
  end if;
  if (new.filter is null) <> (old.filter is null) then
    raise exception 'A hand-made collection cannot become smart, nor a smart one hand-made' using errcode = 'P0001';
  end if;
  return new;
end
$$;

revoke all on function private.collections_keep_their_rules() from public;

create trigger collections_keep_their_rules
  before insert or update on public.collections
  for each row execute function private.collections_keep_their_rules();

alter table public.collections enable row level security;

create policy "Owners can read their own collections"
  on public.collections for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Owners can create their own collections"
  on public.collections for insert to authenticated
  with check (user_id = (select auth.uid()));

create policy "Owners can rename and refilter their own collections"
  on public.collections for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "Owners can delete their own collections"
  on public.collections for delete to authenticated
  using (user_id = (select auth.uid()));

-- The client's calls and nothing more: the outbox saves with supabase-js's upsert on id (insert ... on
-- conflict (id) do update set id, user_id, name, filter = the values sent, so update on id and user_id
-- too, as custom_styles needed; the trigger keeps them unchanged), reads and deletes by id. Times are the
-- server's.
revoke all on table public.collections from anon, authenticated, service_role;
grant select, delete on table public.collections to authenticated;
grant insert (id, user_id, name, filter) on table public.collections to authenticated;
grant update (id, user_id, name, filter) on table public.collections to authenticated;
grant select, insert, update, delete on table public.collections to service_role;

alter publication supabase_realtime add table public.collections;
