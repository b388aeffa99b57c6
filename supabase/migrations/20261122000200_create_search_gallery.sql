-- Gallery search that can use the full-text index (issue 10, gallery search over 100,000 rows).
--
-- Under RLS, PostgreSQL evaluates a query's own conditions only after the policy's, unless the operator
-- is leakproof; `tsvector @@ tsquery` is not, so `search @@ …` sent through PostgREST can never use
-- generations_search_idx. The planner walks the published rows newest first and tests each one: quick
-- for a common word, a scan of most of the table for a rare one (27.6 ms p50 at 100,000 rows).
--
-- This function runs as its owner, so the index is usable, and it returns exactly what the select
-- policy already shows everyone: published rows (is_public), never a private one, whoever calls it.
-- Newest first, with the gallery's keyset cursor (created_at, then id for rows of the same instant).
--
-- The planner picks between walking the newest published rows (a common word fills a page at once) and
-- reading the full-text index (a rare word), from how often each word occurs. With the default
-- statistics it keeps only the ~40 most common words of a varied prompt collection and guesses 0.5%
-- of the rows for any other, so a word in 7 rows out of 100,000 walked the whole table (44 ms). A
-- larger sample keeps many more words and a far smaller floor for the rest (1.5 ms for that word).
alter table public.generations alter column search set statistics 1000;

create function public.search_gallery(
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
    using coalesce(p_query, ''), p_before, p_before_id, least(greatest(coalesce(p_limit, 25), 1), 101);
end
$$;
comment on function public.search_gallery(text, timestamptz, uuid, integer) is
  'Published generations matching a websearch query, newest first, after an optional (created_at, id) cursor; at most 101.';

revoke all on function public.search_gallery(text, timestamptz, uuid, integer) from public;
grant execute on function public.search_gallery(text, timestamptz, uuid, integer) to anon, authenticated, service_role;
