-- Kept upscales (issue 46.1, decision 158): an image upscaled on the person's device can be kept in the
-- library beside its original. keep-upscale stores it as a new generation linked to the original
-- (parent_id) with the kind naming the scale, 'upscale-2x' or 'upscale-4x', so the lineage strip and the
-- recipe say "Upscale 2×" even when the original has been deleted since. Everything else about the link is
-- as decision 155 made it: only the server writes it (record_generation), and the trigger refuses a parent
-- of another person. A kept upscale is stored without a quota reservation, so record_generation charges
-- nothing for it (it charges only a held reservation of the same id).
--
-- The generations bucket needs no change: it already takes image/webp, image/png and image/jpeg up to
-- 20 MiB, and keep-upscale refuses a larger file (413) before it reaches Storage.

alter table public.generations
  drop constraint generations_variation_check,
  add constraint generations_variation_check
    check (variation is null or variation in ('subtle', 'strong', 'upscale-2x', 'upscale-4x'));

comment on column public.generations.variation is
  'How it comes from its parent: subtle or strong (a variation), upscale-2x or upscale-4x (a kept upscale); null when neither.';
