// Listing one folder level of a bucket (POST /object/list/<bucket>), as storage.search() does in
// Supabase: objects directly under the prefix, plus one entry per sub-folder with null id and metadata.
// Only objects the caller may select (storage.objects RLS) are listed or reveal a folder.
import { type Claims, type Db } from "../db.ts";
import { json } from "../http.ts";
import { err, ok, type Result } from "../result.ts";
import { type StorageError, storageErrors } from "./errors.ts";
import { asStorageRole, OPERATIONS } from "./operation.ts";

const MAX_LIMIT = 1000;
const SORT_COLUMNS = new Set(["name", "updated_at", "created_at", "last_accessed_at"]);

interface Entry {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: Record<string, unknown> | null;
}

export async function listObjects(
  db: Db,
  claims: Claims,
  bucket: string,
  body: Record<string, unknown>,
): Promise<Result<Response, StorageError>> {
  const prefix = typeof body.prefix === "string" ? body.prefix.replace(/^\/+|\/+$/g, "") : "";
  const limit = Math.min(Math.max(Number(body.limit ?? 100) || 100, 1), MAX_LIMIT);
  const offset = Math.max(Number(body.offset ?? 0) || 0, 0);
  const search = typeof body.search === "string" ? body.search.toLowerCase() : "";
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  const column = typeof sortBy.column === "string" ? sortBy.column : "name";
  if (!SORT_COLUMNS.has(column)) return err(storageErrors.invalidRequest(`cannot sort by ${column}`));
  const descending = String(sortBy.order ?? "asc").toLowerCase() === "desc";

  const base = prefix ? `${prefix}/` : "";
  const like = base.replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
  const text = await asStorageRole(db, claims, OPERATIONS.list, async (tx) => {
    const { rows } = await tx.query<{ list: string }>(
      `select coalesce(json_agg(json_build_object('name', o.name, 'id', o.id, 'updated_at', o.updated_at,
         'created_at', o.created_at, 'last_accessed_at', o.last_accessed_at, 'metadata', o.metadata)), '[]')::text
         as list from storage.objects o where o.bucket_id = $1 and o.name like $2 escape '\\'`,
      [bucket, like],
    );
    return rows[0].list;
  });

  const folders = new Map<string, Entry>();
  const files: Entry[] = [];
  for (const o of JSON.parse(text) as Entry[]) {
    const rest = o.name.slice(base.length);
    const slash = rest.indexOf("/");
    const entryName = slash < 0 ? rest : rest.slice(0, slash);
    if (search && !entryName.toLowerCase().startsWith(search)) continue;
    if (slash < 0) files.push({ ...o, name: entryName });
    else if (!folders.has(entryName)) {
      folders.set(entryName, {
        name: entryName,
        id: null,
        updated_at: null,
        created_at: null,
        last_accessed_at: null,
        metadata: null,
      });
    }
  }
  const key = (e: Entry) => String(e[column as keyof Entry] ?? "");
  const order = (a: Entry, b: Entry) => {
    const c = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    return descending ? -c : c;
  };
  // Folders first, then files, each in the requested order.
  const entries = [...[...folders.values()].sort(order), ...files.sort(order)];
  return ok(json(entries.slice(offset, offset + limit)));
}

interface V2Row {
  id: string | null;
  name: string;
  bucket_id?: string;
  updated_at?: string | null;
  created_at?: string | null;
  last_accessed_at?: string | null;
  metadata?: Record<string, unknown> | null;
}

type V2Column = "name" | "updated_at" | "created_at";

/** Hosted's continuation token: base64 of "l:<last name>\no:<order>\nc:<column>\na:<column value>" lines. */
function encodeCursor(after: string, order: string, column: V2Column, columnAfter: string | undefined): string {
  const parts = [`l:${after}`, `o:${order}`];
  if (column !== "name") parts.push(`c:${column}`);
  if (columnAfter) parts.push(`a:${columnAfter}`);
  return btoa(String.fromCharCode(...new TextEncoder().encode(parts.join("\n"))));
}

function decodeCursor(token: string): Record<string, string> | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(token), (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
  const out: Record<string, string> = {};
  for (const part of text.split("\n")) {
    const m = /^([loca]):(.*)$/s.exec(part);
    if (!m) return null;
    out[m[1]] = m[2];
  }
  return out;
}

/**
 * POST /object/list-v2/<bucket> (supabase-js `listV2()`): keys under a raw prefix in name (or time)
 * order, cursor-paged, with `with_delimiter` folding each sub-folder into one "<prefix>…/" entry.
 * Rows are read as the caller with hosted's list_v2 operation, so RLS decides what is listed.
 */
export async function listObjectsV2(
  db: Db,
  claims: Claims,
  bucket: string,
  body: Record<string, unknown>,
): Promise<Result<Response, StorageError>> {
  const prefix = body.prefix ?? "";
  if (typeof prefix !== "string") return err(storageErrors.invalidRequest("prefix must be a string"));
  const rawLimit = body.limit ?? MAX_LIMIT;
  if (typeof rawLimit !== "number" || !Number.isInteger(rawLimit) || rawLimit < 1) {
    return err(storageErrors.invalidRequest("limit must be an integer, at least 1"));
  }
  const limit = Math.min(rawLimit, MAX_LIMIT);
  const delimited = body.with_delimiter === true;
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  let column: V2Column = "name";
  let order = "asc";
  if (body.sortBy !== undefined) {
    if (typeof body.sortBy !== "object" || body.sortBy === null) return err(storageErrors.invalidRequest("bad sortBy"));
    if (sortBy.column !== "name" && sortBy.column !== "updated_at" && sortBy.column !== "created_at") {
      return err(storageErrors.invalidRequest("sortBy.column must be name, updated_at or created_at"));
    }
    if (sortBy.order !== undefined && sortBy.order !== "asc" && sortBy.order !== "desc") {
      return err(storageErrors.invalidRequest("sortBy.order must be asc or desc"));
    }
    column = sortBy.column;
    order = (sortBy.order as string | undefined) ?? "asc";
  }
  let after: { name: string; value: string | undefined } | null = null;
  if (body.cursor !== undefined) {
    const c = typeof body.cursor === "string" ? decodeCursor(body.cursor) : null;
    if (!c || c.l === undefined) return err(storageErrors.invalidParameter("continuation token"));
    order = c.o === "desc" ? "desc" : "asc";
    column = c.c === "updated_at" || c.c === "created_at" ? c.c : "name";
    after = { name: c.l, value: c.a };
  }
  if (delimited && column !== "name") {
    // Folders have no times to order by; refused rather than ordered differently from hosted.
    return err(storageErrors.invalidRequest("with_delimiter lists in name order only"));
  }

  const like = prefix.replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
  const text = await asStorageRole(db, claims, OPERATIONS.listV2, async (tx) => {
    const { rows } = await tx.query<{ list: string }>(
      `select coalesce(json_agg(json_build_object('id', o.id, 'name', o.name, 'bucket_id', o.bucket_id,
         'updated_at', o.updated_at, 'created_at', o.created_at, 'last_accessed_at', o.last_accessed_at,
         'metadata', o.metadata)), '[]')::text as list
         from storage.objects o where o.bucket_id = $1 and o.name like $2 escape '\\'`,
      [bucket, like],
    );
    return rows[0].list;
  });
  const rows = JSON.parse(text) as V2Row[];
  const sign = order === "desc" ? -1 : 1;
  const keyOf = (r: V2Row) => (column === "name" ? "" : new Date(r[column] ?? 0).toISOString());
  const cmp = (a: V2Row, b: V2Row) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    if (ka !== kb) return (ka < kb ? -1 : 1) * sign;
    return a.name === b.name ? 0 : (a.name < b.name ? -1 : 1) * sign;
  };

  // Entries in order: objects, or with the delimiter one "<prefix><folder>/" per sub-folder.
  let entries: V2Row[] = rows.sort(cmp);
  if (delimited) {
    const folded: V2Row[] = [];
    let last = "";
    for (const r of entries) {
      const slash = r.name.slice(prefix.length).indexOf("/");
      if (slash < 0) {
        folded.push(r);
        continue;
      }
      const folder = r.name.slice(0, prefix.length + slash + 1);
      if (folder !== last) folded.push({ id: null, name: folder, bucket_id: bucket });
      last = folder;
    }
    entries = folded;
  }
  if (after) {
    const mark: V2Row = { id: null, name: after.name, updated_at: after.value, created_at: after.value };
    entries = entries.filter((e) => cmp(e, mark) > 0 && !(e.id === null && after!.name.startsWith(e.name)));
  }
  const page = entries.slice(0, limit);
  const hasNext = entries.length > limit;
  const lastEntry = page[page.length - 1];
  return ok(
    json({
      hasNext,
      ...(hasNext ?
        {
          nextCursor: encodeCursor(
            lastEntry.name,
            order,
            column,
            column === "name" ? undefined : keyOf(lastEntry) || undefined,
          ),
          nextCursorKey: lastEntry.name,
        } :
        {}),
      folders: page.filter((e) => e.id === null),
      objects: page.filter((e) => e.id !== null),
    }),
  );
}
