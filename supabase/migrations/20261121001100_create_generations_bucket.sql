-- The private Storage bucket of generated images. Objects live under '<owner uid>/'; owners read and
-- write their own folder; anyone reads an object whose generation row is published, and that row's
-- image_path is bound to its owner's folder (generations_image_path_check), so publishing cannot
-- expose another person's image.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('generations', 'generations', false, 20971520, array['image/png', 'image/jpeg', 'image/webp', 'image/gif'])
on conflict (id) do nothing;

create policy "Owners and visitors can read own or published generation images"
  on storage.objects for select to anon, authenticated
  using (
    bucket_id = 'generations'
    and (
      (storage.foldername(name))[1] = (select auth.uid())::text
      or exists (
        select 1
        from public.generations g
        where g.is_public
          and g.image_path = objects.name
          and g.user_id::text = (storage.foldername(objects.name))[1]
      )
    )
  );

create policy "Owners can upload generation images to their own folder"
  on storage.objects for insert to authenticated
  with check (bucket_id = 'generations' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Owners can replace generation images in their own folder"
  on storage.objects for update to authenticated
  using (bucket_id = 'generations' and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id = 'generations' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Owners can delete generation images in their own folder"
  on storage.objects for delete to authenticated
  using (bucket_id = 'generations' and (storage.foldername(name))[1] = (select auth.uid())::text);
