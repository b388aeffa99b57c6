-- The outbox saves a custom style as an upsert (supabase-js upsert on id: PostgREST's
-- insert ... on conflict (id) do update set <every column sent>), which sets id and user_id to the values
-- they already have. Without update on those two columns every save after the first was refused (42501).
-- The policies still decide: the row must be the caller's before and after, at the premium tier.
grant update (id, user_id) on table public.custom_styles to authenticated;
