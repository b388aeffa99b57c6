// Listing one folder level of a bucket (POST /object/list/<bucket>), as storage.search() does in
// Supabase: objects directly under the prefix, plus one entry per sub-folder with null id and metadata.
// Only objects the caller may select (storage.objects RLS) are listed or reveal a folder.
import { type Claims, type Db } from "../db.ts";
import { json } from "../http.ts";
import { err, ok, type Result } from "../result.ts";
import { type StorageError, storageErrors } from "./errors.ts";
import { iso } from "./iso-time.ts";
import { asStorageRole, OPERATIONS } from "./operation.ts";

const MAX_LIMIT = 1000;
const SORT_COLUMNS = ["name", "updated_at", "created_at", "last_accessed_at"];
const V2_SORT_COLUMNS = ["name", "updated_at", "created_at"];

/**
 * The first way a list body breaks storage-api's body schema, in Ajv's words as Fastify reports them
 * (required properties first, then each property's type, bound or allowed values); null when it fits.
 */
function bodyRefusal(body: Record<string, unknown>, v2: boolean): StorageError | null {
  const bad = (message: string) => storageErrors.validation(message);
  if (!v2 && body.prefix === undefined) return bad("body must have required property 'prefix'");
  const integer = (key: string, min: number) => {
    const v = body[key];
    if (v === undefined) return null;
    if (typeof v !== "number" || !Number.isInteger(v)) return bad(`body/${key} must be integer`);
    return v < min ? bad(`body/${key} must be >= ${min}`) : null;
  };
  const string = (key: string) =>
    body[key] !== undefined && typeof body[key] !== "string" ? bad(`body/${key} must be string`) : null;
  const sortBy = () => {
    const v = body.sortBy;
    if (v === undefined) return null;
    if (typeof v !== "object" || v === null || Array.isArray(v)) return bad("body/sortBy must be object");
    const { column, order } = v as { column?: unknown; order?: unknown };
    if (column === undefined) return bad("body/sortBy must have required property 'column'");
    if (typeof column !== "string") return bad("body/sortBy/column must be string");
    if (!(v2 ? V2_SORT_COLUMNS : SORT_COLUMNS).includes(column)) {
      return bad("body/sortBy/column must be equal to one of the allowed values");
    }
    if (order === undefined) return null;
    if (typeof order !== "string") return bad("body/sortBy/order must be string");
    return order === "asc" || order === "desc" ?
      null :
      bad("body/sortBy/order must be equal to one of the allowed values");
  };
  const withDelimiter = () =>
    body.with_delimiter !== undefined && typeof body.with_delimiter !== "boolean" ?
      bad("body/with_delimiter must be boolean") :
      null;
  return v2 ?
    string("prefix") ?? integer("limit", 1) ?? string("cursor") ?? withDelimiter() ?? sortBy() :
    string("prefix") ?? integer("limit", 1) ?? integer("offset", 0) ?? sortBy() ?? string("search");
}

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
  const refusal = bodyRefusal(body, false);
  if (refusal) return err(refusal);
  const prefix = (body.prefix as string).replace(/^\/+|\/+$/g, "");
  const limit = Math.min((body.limit as number | undefined) ?? 100, MAX_LIMIT);
  const offset = (body.offset as number | undefined) ?? 0;
  const search = typeof body.search === "string" ? body.search.toLowerCase() : "";
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  const column = typeof sortBy.column === "string" ? sortBy.column : "name";
  const descending = String(sortBy.order ?? "asc").toLowerCase() === "desc";

  const base = prefix ? `${prefix}/` : "";
  const like = base.replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
  const text = await asStorageRole(db, claims, OPERATIONS.list, async (tx) => {
    const { rows } = await tx.query<{ list: string }>(
      `select coalesce(json_agg(json_build_object('name', o.name, 'id', o.id, 'updated_at', ${iso("o.updated_at")},
         'created_at', ${iso("o.created_at")}, 'last_accessed_at', ${iso("o.last_accessed_at")},
         'metadata', o.metadata)), '[]')::text
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

/** One entry of a list-v2 answer, as storage-api sends it (a folder has a null id). */
interface V2Row {
  /** With the delimiter only: the entry's name at the prefix's level (storage.search_v2's `key`). */
  key?: string;
  id: string | null;
  name: string;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: Record<string, unknown> | null;
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
  const refusal = bodyRefusal(body, true);
  if (refusal) return err(refusal);
  const prefix = (body.prefix as string | undefined) ?? "";
  const limit = Math.min((body.limit as number | undefined) ?? MAX_LIMIT, MAX_LIMIT);
  const delimited = body.with_delimiter === true;
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  let column: V2Column = "name";
  let order = "asc";
  if (body.sortBy !== undefined) {
    column = sortBy.column as V2Column;
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
  const like = prefix.replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
  const text = await asStorageRole(db, claims, OPERATIONS.listV2, async (tx) => {
    const { rows } = await tx.query<{ list: string }>(
      `select coalesce(json_agg(json_build_object('id', o.id, 'name', o.name,
         'updated_at', ${iso("o.updated_at")}, 'created_at', ${iso("o.created_at")},
         'last_accessed_at', ${iso("o.last_accessed_at")}, 'metadata', o.metadata)), '[]')::text as list
         from storage.objects o where o.bucket_id = $1 and o.name like $2 escape '\\'`,
      [bucket, like],
    );
    return rows[0].list;
  });
  const rows = JSON.parse(text) as V2Row[];
  const entries = delimited ? foldFolders(rows, prefix, column) : rows;
  // The entries in storage-api's order. By name, a folder sits where its objects would ("a/" by bytes);
  // by a time, folders and objects are ordered by it (a folder's time is its oldest object's creation,
  // as storage.search_by_timestamp gives it), then by name (a folder's without its trailing '/').
  const sign = order === "desc" ? -1 : 1;
  const timeOf = (r: V2Row) => (column === "name" ? "" : (r[column] ?? "1970-01-01T00:00:00.000Z"));
  const nameOf = (r: V2Row) => (column === "name" || r.id !== null ? r.name : r.name.slice(0, -1));
  const cmpKeys = (ta: string, na: string, tb: string, nb: string) =>
    (ta !== tb ? (ta < tb ? -1 : 1) : byteCompare(na, nb)) * sign;
  entries.sort((a, b) => cmpKeys(timeOf(a), nameOf(a), timeOf(b), nameOf(b)));
  let rest = entries;
  if (after) {
    // A cursor names its last entry as storage-api does (a folder without its '/'); by name, a cursor
    // that is a folder's name stands for that folder, as storage.list_objects_with_delimiter reads it.
    const isFolder = column === "name" && delimited && rows.some((r) => r.name.startsWith(`${after!.name}/`));
    const markName = isFolder ? `${after.name}/` : after.name;
    const markTime = column === "name" ? "" : (after.value ?? "1970-01-01T00:00:00.000Z");
    rest = entries.filter((e) => cmpKeys(timeOf(e), nameOf(e), markTime, markName) > 0);
  }
  const page = rest.slice(0, limit);
  const hasNext = rest.length > limit;
  const lastEntry = page[page.length - 1];
  return ok(
    json({
      hasNext,
      ...(hasNext ?
        {
          nextCursor: encodeCursor(
            cursorName(lastEntry),
            order,
            column,
            column === "name" ? undefined : timeOf(lastEntry) || undefined,
          ),
          nextCursorKey: cursorName(lastEntry),
        } :
        {}),
      folders: page.filter((e) => e.id === null),
      objects: page.filter((e) => e.id !== null),
    }),
  );
}

/** A folder entry's name without its trailing '/', as storage-api's cursors hold it. */
const cursorName = (e: V2Row) => (e.id === null ? e.name.slice(0, -1) : e.name);

/** Orders strings by their UTF-8 bytes, as Postgres's "C" collation (storage-api's) does. */
function byteCompare(a: string, b: string): number {
  if (a === b) return 0;
  const ea = utf8.encode(a);
  const eb = utf8.encode(b);
  const n = Math.min(ea.length, eb.length);
  for (let i = 0; i < n; i++) if (ea[i] !== eb[i]) return ea[i] - eb[i];
  return ea.length - eb.length;
}
const utf8 = new TextEncoder();

/**
 * With the delimiter: the objects directly under `prefix`, and one entry per sub-folder, named
 * "<prefix><folder>/" with a null id and metadata. Every entry has storage.search_v2's `key`: its
 * name's part at the prefix's level. By a time, a folder's times are its oldest object's creation.
 */
function foldFolders(rows: V2Row[], prefix: string, column: V2Column): V2Row[] {
  const level = prefix ? prefix.split("/").length : 1;
  const keyOf = (name: string) => name.split("/")[level - 1] ?? "";
  const folders = new Map<string, V2Row>();
  const out: V2Row[] = [];
  for (const r of rows) {
    const slash = r.name.slice(prefix.length).indexOf("/");
    if (slash < 0) {
      out.push({ key: keyOf(r.name), ...r });
      continue;
    }
    const name = r.name.slice(0, prefix.length + slash + 1);
    let folder = folders.get(name);
    if (!folder) {
      folder = {
        key: keyOf(name.slice(0, -1)),
        name,
        id: null,
        updated_at: null,
        created_at: null,
        last_accessed_at: null,
        metadata: null,
      };
      folders.set(name, folder);
      out.push(folder);
    }
    if (column !== "name" && r.created_at && (!folder.created_at || r.created_at < folder.created_at)) {
      folder.created_at = r.created_at;
      folder.updated_at = r.created_at;
    }
  }
  return out;
}
