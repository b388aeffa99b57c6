-- Every read of the gallery uses one rule (issue 42): a generation is in the gallery when
-- `is_public and held_at is null and removed_at is null`, and a signed-in person never sees there an
-- image they reported. The reads are: the select policy of generations (REST, and realtime's
-- postgres_changes, which applies the same policy to each subscriber), search_gallery, and the storage
-- policy that serves images to anyone but their owner. The owner still reads every row and image of their
-- own, whatever its state (and sees why an operator removed it). Operators also read the rows and view the
-- images that are in review (flagged, held or removed) and every public one, to review them.

drop policy "Anyone can read published generations and owners their own" on public.generations;

create policy "Owners read their own generations and everyone the gallery"
  on public.generations for select to anon, authenticated
  using (
    user_id = (select auth.uid())
    or (
      is_public and held_at is null and removed_at is null
      and not (id = any ((select public.my_reported_generations())::uuid[]))
    )
    or (
      (is_public or flagged_at is not null or removed_at is not null)
      and (select public.is_operator())
    )
  );

create or replace function public.search_gallery(
  p_query text,
  p_before timestamptz default null,
  p_before_id uuid default null,
  p_limit integer default 25
)
returns setof public.generations
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if char_length(p_query) > 1000 then
    raise exception 'search query too long' using errcode = '22023',
      detail = 'A gallery search may have at most 1,000 characters.';
  end if;
  -- EXECUTE plans each call with its values (see 20261126120000_bound_gallery_search.sql). Security
  -- definer reads past row-level security, so the gallery rule is written out here, with the caller's
  -- reported images ($5) left out.
  return query execute
    'select g.* from public.generations as g
      where g.is_public and g.held_at is null and g.removed_at is null
        and not (g.id = any ($5))
        and g.search @@ websearch_to_tsquery(''english''::regconfig, $1)
        and ($2::timestamptz is null or g.created_at < $2 or (g.created_at = $2 and $3::uuid is not null and g.id < $3))
      order by g.created_at desc, g.id desc
      limit $4'
    using regexp_replace(coalesce(p_query, ''), '-(\s*-)+', '-', 'g'), p_before, p_before_id,
      least(greatest(coalesce(p_limit, 25), 1), 101), public.my_reported_generations();
end
$$;
comment on function public.search_gallery(text, timestamptz, uuid, integer) is
  'Gallery generations (published, not held, not removed, not reported by the caller) matching a websearch query (at most 1,000 characters; a run of - is one), newest first, after an optional (created_at, id) cursor; at most 101.';

-- The image policy of 20261124000200_generation_images_follow_their_rows.sql, with the gallery rule for
-- visitors and a view for operators of images in review. The owner's part is unchanged.
drop policy "Owners read their generation images and visitors only view published ones" on storage.objects;

create policy "Owners read own generation images and others view gallery ones"
  on storage.objects for select to anon, authenticated
  using (
    bucket_id = 'generations'
    and (
      (
        (storage.foldername(name))[1] = (select auth.uid())::text
        and (
          coalesce((select storage.operation()), '') in (
            '', 'storage.object.list', 'storage.object.list_v2', 'storage.object.delete', 'storage.object.delete_many'
          )
          or exists (
            select 1
            from public.generations g
            where g.image_path = objects.name
              and g.user_id = (select auth.uid())
          )
        )
      )
      or (
        coalesce((select storage.operation()), '') in (
          'storage.object.get_authenticated',
          'object.get_authenticated_info',
          'object.head_authenticated_info',
          'storage.object.info_authenticated',
          'storage.render.image_authenticated'
        )
        and exists (
          select 1
          from public.generations g
          where g.image_path = objects.name
            and g.user_id::text = (storage.foldername(objects.name))[1]
            and (
              (
                g.is_public and g.held_at is null and g.removed_at is null
                and not (g.id = any ((select public.my_reported_generations())::uuid[]))
              )
              or (
                (g.is_public or g.flagged_at is not null or g.removed_at is not null)
                and (select public.is_operator())
              )
            )
        )
      )
    )
  );
