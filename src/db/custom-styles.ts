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
import { layUnderPending, pendingRows, type PendingChange, type WholeRows } from "./pending";
import type { CustomStyleRecord } from "./schema";

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
function pendingStyles(db: AppDb, userId: string) {
  return pendingRows(db, userId, (op): PendingChange<CustomStyleRecord>[] =>
    op.kind === "style.save"
      ? [{ save: op.payload.style.id, value: op.payload.style }]
      : op.kind === "style.delete"
        ? [{ delete: op.payload.styleId }]
        : [],
  );
}

const styleRows = (db: AppDb): WholeRows<CustomStyleRecord, string> => ({
  table: db.customStyles,
  keyOf: (s) => s.id,
  idOf: (id) => id,
});

/** Server rows (pull or realtime), by id, under the writes still waiting: a pending save or delete wins. */
export async function applyServerStyles(db: AppDb, userId: string, rows: CustomStyleRow[]): Promise<number> {
  const own = rows.filter((r) => r.user_id === userId);
  if (!own.length) return 0;
  return db.transaction("rw", [db.customStyles, db.outbox], async () =>
    layUnderPending(styleRows(db), await pendingStyles(db, userId), own.map(toCustomStyleRecord)),
  );
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
    const held = (await db.customStyles.where("userId").equals(userId).primaryKeys()) as string[];
    const own = rows.filter((r) => r.user_id === userId).map(toCustomStyleRecord);
    await layUnderPending(styleRows(db), await pendingStyles(db, userId), own, held);
  });
}

/** The person's styles, by name. */
export function listCustomStyles(userId: string, db: AppDb = appDb): Promise<CustomStyleRecord[]> {
  return db.customStyles.where("[userId+name]").between([userId, ""], [userId, "\uffff"]).toArray();
}
