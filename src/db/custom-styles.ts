// The person's own styles (decision 152) on this device: made, renamed, edited and deleted here at once
// (offline too), each write adding its outbox entry in the same transaction (as src/db/library.ts does),
// so the server hears it when the device is online. Server rows arriving later (pull, realtime) are laid
// under the entries still waiting, so a pending edit or delete never flickers back.
import type { CustomStyleRow } from "#shared/vocabulary/custom-styles.ts";
import { isAspectRatio, isQuality } from "#shared/vocabulary/generation.ts";
import { validateCustomStyle } from "#shared/vocabulary/custom-styles.ts";
import { isStyleId } from "#shared/vocabulary/styles.ts";
import { db as appDb, type AppDb } from "./db";
import { addOutboxEntry, pendingEntries } from "./outbox";
import type { CustomStyleRecord, OutboxOp } from "./schema";

/** What the editor gives: everything a style holds but its owner and times. */
export type CustomStyleDraft = Pick<
  CustomStyleRecord,
  "name" | "prompt" | "negativePrompt" | "baseStyle" | "quality" | "aspectRatio" | "preview"
>;

function toCustomStyleRecord(row: CustomStyleRow): CustomStyleRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    prompt: row.prompt,
    negativePrompt: row.negative_prompt ?? "",
    baseStyle: row.base_style,
    quality: row.quality,
    aspectRatio: row.aspect_ratio,
    preview: row.preview ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The editor's fields, trimmed and checked: the message of the first problem, or the clean draft. */
function cleanDraft(draft: CustomStyleDraft): { error: string } | { draft: CustomStyleDraft } {
  const error = validateCustomStyle(draft);
  if (error) return { error };
  if (!isStyleId(draft.baseStyle) || !isQuality(draft.quality) || !isAspectRatio(draft.aspectRatio)) {
    return { error: "Please choose a built-in style, quality and aspect ratio" };
  }
  return {
    draft: {
      ...draft,
      name: draft.name.trim(),
      prompt: draft.prompt.trim(),
      negativePrompt: draft.negativePrompt.trim(),
    },
  };
}

/**
 * Makes a style (no `id`) or changes one the device holds (a rename is a change of its name): Dexie and
 * the outbox in one transaction. Answers the record, or an error message (invalid, or not held here).
 */
export async function saveCustomStyle(
  userId: string,
  draft: CustomStyleDraft,
  id?: string,
  db: AppDb = appDb,
  now: number = Date.now(),
): Promise<{ ok: true; style: CustomStyleRecord } | { ok: false; message: string }> {
  const clean = cleanDraft(draft);
  if ("error" in clean) return { ok: false, message: clean.error };
  const at = new Date(now).toISOString();
  return db.transaction("rw", [db.customStyles, db.outbox], async () => {
    const held = id ? await db.customStyles.get(id) : undefined;
    if (id && (!held || held.userId !== userId))
      return { ok: false as const, message: "This style is not on this device" };
    const style: CustomStyleRecord = {
      id: held?.id ?? crypto.randomUUID(),
      userId,
      ...clean.draft,
      createdAt: held?.createdAt ?? at,
      updatedAt: at,
    };
    await db.customStyles.put(style);
    await addOutboxEntry(db, userId, { kind: "style.save", payload: { style } }, now);
    return { ok: true as const, style };
  });
}

/** Deletes a style here at once; saves of it still waiting are dropped (the style they would write is going). */
export async function deleteCustomStyle(userId: string, id: string, db: AppDb = appDb): Promise<boolean> {
  return db.transaction("rw", [db.customStyles, db.outbox], async () => {
    const held = await db.customStyles.get(id);
    if (!held || held.userId !== userId) return false;
    await db.customStyles.delete(id);
    const moot = (await pendingEntries(db, userId)).filter(
      (e) => e.kind === "style.save" && (e.payload as { style: { id: string } }).style.id === id,
    );
    await db.outbox.bulkDelete(moot.map((e) => e.seq!));
    await addOutboxEntry(db, userId, { kind: "style.delete", payload: { styleId: id } });
    return true;
  });
}

/** The styles the outbox has yet to save (newest values) or delete. */
async function pendingStyles(db: AppDb, userId: string) {
  const saved = new Map<string, CustomStyleRecord>();
  const deleted = new Set<string>();
  for (const entry of await pendingEntries(db, userId)) {
    const op = { kind: entry.kind, payload: entry.payload } as OutboxOp;
    if (op.kind === "style.save") {
      saved.set(op.payload.style.id, op.payload.style);
      deleted.delete(op.payload.style.id);
    } else if (op.kind === "style.delete") {
      deleted.add(op.payload.styleId);
      saved.delete(op.payload.styleId);
    }
  }
  return { saved, deleted };
}

/** Server rows (pull or realtime), by id, under the writes still waiting: a pending save or delete wins. */
export async function applyServerStyles(db: AppDb, userId: string, rows: CustomStyleRow[]): Promise<number> {
  const own = rows.filter((r) => r.user_id === userId);
  if (!own.length) return 0;
  return db.transaction("rw", [db.customStyles, db.outbox], async () => {
    const { saved, deleted } = await pendingStyles(db, userId);
    const next = own.filter((r) => !saved.has(r.id) && !deleted.has(r.id)).map(toCustomStyleRecord);
    await db.customStyles.bulkPut(next);
    return next.length;
  });
}

/** A style deleted on the server (another device): gone here too, unless this device is saving it again. */
export async function applyServerStyleDelete(db: AppDb, userId: string, id: string): Promise<boolean> {
  return db.transaction("rw", [db.customStyles, db.outbox], async () => {
    const held = await db.customStyles.get(id);
    if (!held || held.userId !== userId) return false;
    if ((await pendingStyles(db, userId)).saved.has(id)) return false;
    await db.customStyles.delete(id);
    return true;
  });
}

/**
 * The catch-up: the server's whole list of the person's styles (a few dozen at most) replaces what the
 * device holds, under the writes still waiting. Styles gone from the server and not being saved go.
 */
export async function reconcileStyles(db: AppDb, userId: string, rows: CustomStyleRow[]): Promise<void> {
  await db.transaction("rw", [db.customStyles, db.outbox], async () => {
    const { saved, deleted } = await pendingStyles(db, userId);
    const onServer = new Set(rows.map((r) => r.id));
    const held = await db.customStyles.where("userId").equals(userId).primaryKeys();
    const gone = (held as string[]).filter((id) => !onServer.has(id) && !saved.has(id));
    await db.customStyles.bulkDelete(gone);
    const next = rows
      .filter((r) => r.user_id === userId && !saved.has(r.id) && !deleted.has(r.id))
      .map(toCustomStyleRecord);
    await db.customStyles.bulkPut(next);
  });
}

/** The person's styles, by name. */
export function listCustomStyles(userId: string, db: AppDb = appDb): Promise<CustomStyleRecord[]> {
  return db.customStyles.where("[userId+name]").between([userId, ""], [userId, "\uffff"]).toArray();
}
