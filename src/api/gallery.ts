// The public gallery: everyone's published generations, newest first, in pages, with full-text
// search over prompts (the generated `search` tsvector column, websearch syntax: words, "phrases",
// -exclusions, or). Open to visitors: RLS lets anyone read published rows, and the bucket's policy
// lets anyone read a published row's image, so each page's image URLs are signed in one call.
import { GENERATION_COLUMNS, GENERATIONS_BUCKET, type GenerationRow } from "#shared/vocabulary/rows.ts";
import { err, ok, type Result } from "../lib/result";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";

export type PublishedRow = GenerationRow & { image_url: string | null };
export type GalleryPage = { rows: PublishedRow[]; next?: string };

export const GALLERY_PAGE_DEFAULT = 24;
export const GALLERY_PAGE_MAX = 100;
/**
 * Signed gallery URLs are short-lived: a URL keeps working until it expires even after its row is
 * unpublished, so this bounds how long a withdrawn image stays reachable through an old page.
 */
export const GALLERY_URL_SECONDS = 600;

/**
 * A page cursor is the last row's created_at followed by "~" and its id: rows created at the same
 * instant are told apart by id, so paging never skips or repeats one. A bare created_at works too.
 */
export function cursorOf(row: Pick<GenerationRow, "created_at" | "id">): string {
  return `${row.created_at}~${row.id}`;
}

function parseCursor(cursor: string): { createdAt: string; id?: string } {
  const at = cursor.lastIndexOf("~");
  return at < 0 ? { createdAt: cursor } : { createdAt: cursor.slice(0, at), id: cursor.slice(at + 1) };
}

/** PostgREST needs values holding `,.:()` double-quoted inside or=(…). */
const quoted = (value: string) => `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;

async function withImageUrls(rows: GenerationRow[]): Promise<PublishedRow[]> {
  if (!rows.length) return [];
  const { data } = await supabase()
    .storage.from(GENERATIONS_BUCKET)
    .createSignedUrls(
      rows.map((r) => r.image_path),
      GALLERY_URL_SECONDS,
    );
  // A row whose URL could not be signed is still listed; the view shows it without its image.
  const urls = new Map((data ?? []).map((d) => [d.path, d.signedUrl]));
  return rows.map((r) => ({ ...r, image_url: urls.get(r.image_path) ?? null }));
}

export async function listPublished(options: {
  q?: string;
  before?: string;
  limit?: number;
}): Promise<Result<GalleryPage, AppError>> {
  const limit = Math.min(GALLERY_PAGE_MAX, Math.max(1, Math.floor(options.limit ?? GALLERY_PAGE_DEFAULT)));
  try {
    let query = supabase().from("generations").select(GENERATION_COLUMNS).eq("is_public", true);
    const q = options.q?.trim();
    if (q) query = query.textSearch("search", q, { type: "websearch", config: "english" });
    if (options.before) {
      const { createdAt, id } = parseCursor(options.before);
      query = id
        ? query.or(`created_at.lt.${quoted(createdAt)},and(created_at.eq.${quoted(createdAt)},id.lt.${quoted(id)})`)
        : query.lt("created_at", createdAt);
    }
    // One row more than asked tells whether another page exists.
    const { data, error } = await query
      .order("created_at", { ascending: false })
      .order("id", { ascending: false })
      .limit(limit + 1);
    if (error) return err(toAppError(error));
    const found = (data ?? []) as unknown as GenerationRow[];
    const rows = await withImageUrls(found.slice(0, limit));
    const last = rows[rows.length - 1];
    return ok(found.length > limit && last ? { rows, next: cursorOf(last) } : { rows });
  } catch (e) {
    return err(toAppError(e));
  }
}

/** One published generation (null when it is not published or does not exist). */
export async function getPublished(id: string): Promise<Result<PublishedRow | null, AppError>> {
  // Not an id at all (a mistyped link): nothing is published under it.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return ok(null);
  try {
    const { data, error } = await supabase()
      .from("generations")
      .select(GENERATION_COLUMNS)
      .eq("id", id)
      .eq("is_public", true)
      .maybeSingle();
    if (error) return err(toAppError(error));
    if (!data) return ok(null);
    const [row] = await withImageUrls([data as unknown as GenerationRow]);
    return ok(row);
  } catch (e) {
    return err(toAppError(e));
  }
}
