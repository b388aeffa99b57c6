// The gallery's paging, apart from the API client: the page's code pages the rows it was handed before
// that client has loaded (see features/gallery/first-screen.ts).
import type { GenerationRow } from "#shared/vocabulary/rows.ts";

export type PublishedRow = GenerationRow;
export type GalleryPage = { rows: PublishedRow[]; next?: string };

export const GALLERY_PAGE_DEFAULT = 24;
export const GALLERY_PAGE_MAX = 100;
/**
 * A page cursor is the last row's created_at followed by "~" and its id: rows created at the same
 * instant are told apart by id, so paging never skips or repeats one. A bare created_at works too.
 */
export function cursorOf(row: Pick<GenerationRow, "created_at" | "id">): string {
  return `${row.created_at}~${row.id}`;
}

export function parseCursor(cursor: string): { createdAt: string; id?: string } {
  const at = cursor.lastIndexOf("~");
  return at < 0 ? { createdAt: cursor } : { createdAt: cursor.slice(0, at), id: cursor.slice(at + 1) };
}

/** The first `limit` rows, and a cursor when one more was found. */
export function pageOf(found: GenerationRow[], limit: number): GalleryPage {
  const rows = found.slice(0, limit);
  const last = rows[rows.length - 1];
  return found.length > limit && last ? { rows, next: cursorOf(last) } : { rows };
}
