// Listing one folder level of a bucket (POST /object/list/<bucket>), as storage.search() does in
// Supabase: objects directly under the prefix, plus one entry per sub-folder with null id and metadata.
// Only objects the caller may select (storage.objects RLS) are listed or reveal a folder.
import { asRole, type Claims, type Db } from "../db.ts";
import { json } from "../http.ts";
import { err, ok, type Result } from "../result.ts";
import { type StorageError, storageErrors } from "./errors.ts";

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
  const text = await asRole(db, claims, async (tx) => {
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
