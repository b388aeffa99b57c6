-- Only the server makes generations (issue 10, item 1). Until now a signed-in client could upload any
-- file into its folder of the generations bucket and insert a published row pointing at it, with no
-- quota charge and none of the providers' content filters: the public gallery could be filled with
-- anything. The generate-image function writes rows and objects with the service role, which bypasses
-- RLS, so from here on it alone creates them.
--
-- Clients keep: reading their own and published rows and images, changing is_public / is_saved of
-- their own rows, deleting their own rows, and removing their own objects (the owner delete policy on
-- storage.objects stays, keyed on the folder and not on the row, so an image stays removable by its
-- owner after its row is gone).

drop policy if exists "Owners can create their own generations" on public.generations;

-- Revoking the table privilege also revokes the column-level insert grant of the first migration, so
-- an insert is refused for want of a privilege (42501) before any policy is consulted.
revoke insert on table public.generations from anon, authenticated;

drop policy if exists "Owners can upload generation images to their own folder" on storage.objects;
drop policy if exists "Owners can replace generation images in their own folder" on storage.objects;
