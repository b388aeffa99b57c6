-- Gallery search takes any text from anyone, visitors included (decision 125). websearch_to_tsquery
-- turns each `-` before a word into a negation and its parser holds at most 32 operators, so a query of
-- 33 `-` in a row raised an internal error (XX000 "tsquery stack too small"): a 500 on PostgreSQL and a
-- broken instance on PGlite. A run of `-` (spaces between them or not) now counts as one, which is what
-- a person typing it means; and a query longer than 1,000 characters, far past any search, is refused
-- as an invalid argument (22023, a 400) rather than parsed.

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
  -- EXECUTE plans each call with its values, so the planner sees how common the words are: for a
  -- common word it walks the newest published rows and stops at the page's end; for a rare one it
  -- reads the full-text index. A plan made once for any query would be slow for one kind or the other.
  return query execute
    'select g.* from public.generations as g
      where g.is_public
        and g.search @@ websearch_to_tsquery(''english''::regconfig, $1)
        and ($2::timestamptz is null or g.created_at < $2 or (g.created_at = $2 and $3::uuid is not null and g.id < $3))
      order by g.created_at desc, g.id desc
      limit $4'
    using regexp_replace(coalesce(p_query, ''), '-(\s*-)+', '-', 'g'), p_before, p_before_id,
      least(greatest(coalesce(p_limit, 25), 1), 101);
end
$$;
comment on function public.search_gallery(text, timestamptz, uuid, integer) is
  'Published generations matching a websearch query (at most 1,000 characters; a run of - is one), newest first, after an optional (created_at, id) cursor; at most 101.';
