// The public gallery: everyone's published generations, newest first, in pages, with full-text
// search over prompts (the generated `search` tsvector column, websearch syntax: words, "phrases",
// -exclusions, or). Open to visitors: RLS lets anyone read published rows, and the bucket's policy
// ("read own or published") lets anyone read a published row's image. Images are never handed out as
// signed URLs here: a signed URL keeps working after its row is unpublished, so each image is fetched
// through the Storage API as the current role (loadPublishedImage) and the policy decides every time.
import { GENERATION_COLUMNS, GENERATIONS_BUCKET, type GenerationRow } from "#shared/vocabulary/rows.ts";
import { err, ok, type Result } from "../lib/result";
import {
  GALLERY_PAGE_DEFAULT,
  GALLERY_PAGE_MAX,
  pageOf,
  parseCursor,
  type GalleryPage,
  type PublishedRow,
} from "./gallery-pages";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";

export type { GalleryPage, PublishedRow } from "./gallery-pages";
export { GALLERY_PAGE_DEFAULT } from "./gallery-pages";

/** PostgREST needs values holding `,.:()` double-quoted inside or=(…). */
const quoted = (value: string) => `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/**
 * The bytes of a published image, read through the Storage API as the current role (a visitor's anon
 * key or a person's session), so the bucket's policy decides on each load: once its row is unpublished
 * or deleted the read is refused, and nobody reads another person's private image by its path.
 * With `thumbnail`, the Storage API's image transformation scales it to a square of that side (a tile
 * then fetches tens of kilobytes, not the full picture); where the project has no transformation
 * (hosted Supabase offers it on paid plans only) the full image is read instead.
 */
export async function loadPublishedImage(path: string, thumbnail?: number): Promise<Result<Blob, AppError>> {
  try {
    const bucket = supabase().storage.from(GENERATIONS_BUCKET);
    if (thumbnail) {
      const small = await bucket.download(path, {
        transform: { width: thumbnail, height: thumbnail, resize: "cover", quality: 75 },
      });
      if (small.data && !small.error) return ok(small.data);
    }
    const { data, error } = await bucket.download(path);
    if (error || !data) return err(toAppError(error ?? new Error(`no image at ${path}`)));
    return ok(data);
  } catch (e) {
    return err(toAppError(e));
  }
}

export async function listPublished(options: {
  q?: string;
  before?: string;
  limit?: number;
}): Promise<Result<GalleryPage, AppError>> {
  const limit = Math.min(GALLERY_PAGE_MAX, Math.max(1, Math.floor(options.limit ?? GALLERY_PAGE_DEFAULT)));
  try {
    const q = options.q?.trim();
    const cursor = options.before ? parseCursor(options.before) : null;
    if (q) {
      // search_gallery (a migration) searches through the full-text index, which a query under RLS
      // cannot use; it returns published rows only, with the same cursor and order.
      const { data, error } = await supabase()
        .rpc("search_gallery", {
          p_query: q,
          p_before: cursor?.createdAt ?? null,
          p_before_id: cursor?.id ?? null,
          p_limit: limit + 1,
        })
        .select(GENERATION_COLUMNS);
      if (error) return err(toAppError(error));
      return ok(pageOf((data ?? []) as unknown as GenerationRow[], limit));
    }
    // The gallery's rule (decision 139) written out: published, not held after reports, not removed. The
    // select policy applies it (and leaves out what the caller reported) for everyone but the owner and
    // operators, who read rows whatever their state; this keeps those out of their gallery too.
    let query = supabase()
      .from("generations")
      .select(GENERATION_COLUMNS)
      .eq("is_public", true)
      .is("held_at", null)
      .is("removed_at", null);
    if (cursor) {
      query = cursor.id
        ? query.or(
            `created_at.lt.${quoted(cursor.createdAt)},and(created_at.eq.${quoted(cursor.createdAt)},id.lt.${quoted(cursor.id)})`,
          )
        : query.lt("created_at", cursor.createdAt);
    }
    // One row more than asked tells whether another page exists.
    const { data, error } = await query
      .order("created_at", { ascending: false })
      .order("id", { ascending: false })
      .limit(limit + 1);
    if (error) return err(toAppError(error));
    return ok(pageOf((data ?? []) as unknown as GenerationRow[], limit));
  } catch (e) {
    return err(toAppError(e));
  }
}

/** One generation in the gallery (null when it is not there: unpublished, held, removed, reported, or no such row). */
export async function getPublished(id: string): Promise<Result<PublishedRow | null, AppError>> {
  // Not an id at all (a mistyped link): nothing is published under it.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return ok(null);
  try {
    const { data, error } = await supabase()
      .from("generations")
      .select(GENERATION_COLUMNS)
      .eq("id", id)
      .eq("is_public", true)
      .is("held_at", null)
      .is("removed_at", null)
      .maybeSingle();
    if (error) return err(toAppError(error));
    return ok((data as unknown as GenerationRow | null) ?? null);
  } catch (e) {
    return err(toAppError(e));
  }
}
