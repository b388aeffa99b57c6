// The client's source of truth (docs/architecture.md, "A generation, end to end"): record shapes and the
// Dexie schema versions.
// Versions are appended, newest last; a shipped version is never edited (house rule 6).
import type { Dexie, Transaction } from "dexie";
import type { ErrorCode } from "#shared/vocabulary/errors.ts";
import { DIMENSIONS, isAspectRatio, type AspectRatio, type Quality } from "#shared/vocabulary/generation.ts";
import { GENERATIONS_BUCKET } from "#shared/vocabulary/rows.ts";
import type { Tier } from "#shared/vocabulary/tiers.ts";
import type { AppliedCustomStyle } from "#shared/vocabulary/custom-styles.ts";
import type { VariationKind, VaryKind } from "#shared/vocabulary/variations.ts";
import type { CollectionFilter } from "#shared/vocabulary/collections.ts";
import { promptWords } from "./search";

/** A server `generations` row as the client keeps it (its image bytes are in ImageRecord). */
export type GenerationRecord = {
  id: string;
  userId: string;
  prompt: string;
  negativePrompt: string;
  style: string;
  quality: Quality;
  aspectRatio: AspectRatio;
  width: number;
  height: number;
  seed: number | null;
  provider: string;
  model: string;
  imagePath: string;
  isPublic: 0 | 1;
  isSaved: 0 | 1;
  /** ISO 8601; sorts as text. */
  createdAt: string;
  /**
   * The prompt's distinct lower-cased words (schema 3, multiEntry index): offline search matches
   * terms against them by prefix (src/db/search.ts). Built by toGenerationRecord, never by hand.
   */
  words?: string[];
  /**
   * docs/spec.md §3: always false for a generation loaded from history (schema 6): the server refuses a
   * flagged image before a row exists. Set by toGenerationRecord; optional only for records built by hand.
   */
  NSFWContent?: false;
  /**
   * Issue 42: when an operator took the image out of the gallery, and the reason they gave, which the
   * owner reads on it ("Removed from the gallery: …"). Present only while the row says so (a restore
   * clears them); not indexed, so no schema version is needed.
   */
  removedAt?: string;
  removedReason?: string | null;
  /**
   * Decision 152: the person's custom style it was made with (its words are in the prompt already), its
   * id and name; present only when the row names one (not indexed: no schema version needed for them).
   */
  customStyleId?: string;
  customStyle?: string;
  /**
   * Decision 155 (schema 9, indexed by `variation.of`): the generation this one varies, and how, in the
   * shape the file's recipe carries it; present only while the row links a parent (one deleted since
   * unlinks it).
   */
  variation?: { of: string; kind: VariationKind };
};

/**
 * The image bytes this device keeps for one generation (schema 4), apart from the records so that
 * reading a list of 10,000 generations never loads a Blob, and caching an image never re-runs the
 * live lists over `generations`. `thumbnail` is a small WebP for grids as a data: URL, made
 * from `image` or from the stored object the first time a tile shows it: a tile sets it as its picture
 * as it is, with no object URL to make (a call to the browser process each) and no Blob to read.
 * Thumbnails kept before were Blobs; reads drop them (see images.ts) and tiles make them again.
 */
export type ImageRecord = { id: string; userId: string; image?: Blob; thumbnail?: string };

/**
 * What this device keeps of one generation's image, without its bytes (schema 5): the offline library
 * (src/db/offline-library.ts) plans from these small rows which images to fetch and which to let go,
 * without reading a thumbnail or a Blob. `size` is the full image's bytes (0 when only the thumbnail
 * is kept); `viewedAt` the last time (epoch ms) the large view showed it, 0 when never.
 */
export type ImageUseRecord = { id: string; userId: string; size: number; thumbnail: 0 | 1; viewedAt: number };

/** What a variation's task keeps of it: the parent's id and the kind (its recipe is the task's own fields). */
export type TaskVariation = { parentId: string; kind: VaryKind };

export type TaskStatus = "queued" | "running" | "done" | "error";

export type TaskParams = { width: number; height: number; model?: string };

/** Why a queued task is not being sent now, and until when (ISO) if that is known. */
export type TaskWait = { reason: "offline" | "quota" | "auth" | "backoff"; until?: string };

/**
 * A queued generation request; its id is the request id the server deduplicates on, written before
 * any network call, so a reload or a second runner re-sends the same id and the server replays it.
 */
export type TaskRecord = {
  id: string;
  userId: string;
  /** Tasks queued together in batch mode share this. */
  batchId?: string;
  type: "image-generation";
  prompt: string;
  negativePrompt: string;
  style: string;
  quality: Quality;
  aspectRatio: AspectRatio;
  seed: number | null;
  /** A data URL. */
  referenceImage?: string;
  provider?: string;
  /**
   * Decision 152: the custom style it is made with, as it was when queued (a task queued offline runs as
   * made whatever becomes of the style meanwhile). `prompt` and `negativePrompt` above are the person's own.
   */
  customStyle?: AppliedCustomStyle;
  /** Decision 155: the person's image this task varies, and how (sent as the request's `variation`). */
  variation?: TaskVariation;
  /**
   * Decision 157: the person's hand-made collection its image goes into once made ("Add new results to"),
   * as chosen when queued; a collection gone by then is skipped (not indexed: no schema version needed).
   */
  collectionId?: string;
  /**
   * docs/spec.md §3 (schema 6): the size asked for (the ratio's pixels), and the model that drew it once
   * the server has said.
   */
  params: TaskParams;
  status: TaskStatus;
  /**
   * docs/spec.md §4 (schema 6): set when done, the stored image's address relative to the backend's URL
   * (the private bucket answers with the person's token); absent when the image was deleted since.
   */
  resultUrl?: string;
  /** Sends so far (a replay after a reload counts too). */
  attempts: number;
  /**
   * Set at the first send and kept through a retry: the server may hold this request's row (an answer
   * lost, a tab closed mid-send), so only the server may refuse it; a replay is never charged.
   */
  sent?: true;
  wait?: TaskWait;
  error?: { code: ErrorCode; message: string };
  /**
   * Set while running when the server has said this task's image is drawn and the queue has sent the
   * next task in its slot (decision 123): the task is finishing (stored, then answered) and no longer
   * counts as running against the concurrency. Cleared when it runs again.
   */
  drawnAt?: string;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
};

/** What an outbox entry asks the server to do; each is idempotent (see src/sync/push.ts). */
export type OutboxOp =
  | { kind: "generation.flags"; payload: { generationId: string; isSaved?: boolean; isPublic?: boolean } }
  | { kind: "generation.delete"; payload: { generationId: string; imagePath: string } }
  | { kind: "preferences.update"; payload: { patch: PreferencesPatch } }
  /** Decision 152: the whole style as it now is (an upsert: a resend sets the same values). */
  | { kind: "style.save"; payload: { style: CustomStyleRecord } }
  | { kind: "style.delete"; payload: { styleId: string } }
  /** Decision 158: an upscale kept here, sent with its file (IndexedDB keeps the Blob); its id makes a resend idempotent. */
  | { kind: "upscale.keep"; payload: { generationId: string; originalId: string; scale: 2 | 4; image: Blob } }
  /** Decision 157: the whole collection as it now is (an upsert), its delete, and items added or removed. */
  | { kind: "collection.save"; payload: { collection: CollectionRecord } }
  | { kind: "collection.delete"; payload: { collectionId: string } }
  | { kind: "collection.add"; payload: { collectionId: string; generationIds: string[] } }
  | { kind: "collection.remove"; payload: { collectionId: string; generationIds: string[] } };

export type OutboxKind = OutboxOp["kind"];

/**
 * `pending` waits its turn; `conflict` could not be applied because the server's truth differs (the
 * row is gone, or the server refused the change for good): it stays listed until the person dismisses it.
 */
export type OutboxStatus = "pending" | "conflict";

export type OutboxConflict = {
  reason: "gone" | "rejected";
  message: string;
  /** The refusal's error code (the catalogue's, src/api/errors.ts), where the server gave one. */
  code?: ErrorCode;
  at: string;
  /** Set once a page has told the person (so exactly one toast, whichever tab or worker found it). */
  notified: boolean;
};

/** A write that must reach the server; added in the same transaction as the local change. */
export type OutboxEntry = {
  seq?: number;
  id: string;
  userId: string;
  kind: OutboxKind | (string & {});
  payload: unknown;
  /** Sends that failed so far (the backoff grows with it). */
  attempts: number;
  createdAt: string;
  /** Schema 3; version 2 entries are upgraded to `pending`. */
  status: OutboxStatus;
  /** Not sent again before this instant (ISO), after a network or server failure. */
  nextAttemptAt?: string;
  conflict?: OutboxConflict;
  /** Set when the entry waits for something (a sign-in, a fix) rather than for the network. */
  parkedReason?: string;
};

export type PromptHistoryRecord = {
  id: string;
  /** The account that typed it (absent on entries from before prompts had an owner: shown to no one). */
  userId?: string;
  prompt: string;
  timestamp: number;
  style: string;
  quality: Quality;
};

export type PreferencesRecord = {
  userId: string;
  defaultStyle: string;
  defaultQuality: Quality;
  defaultAspectRatio: AspectRatio;
  notificationsEnabled: boolean;
  publicGalleryOptIn: boolean;
  timezone: string;
  updatedAt: string;
};

export type PreferencesPatch = Partial<
  Pick<
    PreferencesRecord,
    | "defaultStyle"
    | "defaultQuality"
    | "defaultAspectRatio"
    | "notificationsEnabled"
    | "publicGalleryOptIn"
    | "timezone"
  >
>;

export type LimitsRecord = {
  userId: string;
  generationsToday: number;
  dailyLimit: number;
  remaining: number;
  resetAt: string;
  tier: Tier;
  checkedAt: string;
};

/**
 * A person's own style (schema 7, decision 152): the server's public.custom_styles row as the client keeps
 * it. `prompt` is the words it adds to the prompt; `preview` a small JPEG data: URL from one of their images.
 */
export type CustomStyleRecord = {
  id: string;
  userId: string;
  name: string;
  prompt: string;
  negativePrompt: string;
  baseStyle: string;
  quality: Quality;
  aspectRatio: AspectRatio;
  preview: string | null;
  createdAt: string;
  updatedAt: string;
};

/**
 * A person's collection (schema 10, decision 157): the server's public.collections row as the client keeps
 * it. `filter` null: hand-made (its images are CollectionItemRecords); an object: smart, a saved filter over
 * the recipe evaluated over what the device holds.
 */
export type CollectionRecord = {
  id: string;
  userId: string;
  name: string;
  filter: CollectionFilter | null;
  createdAt: string;
  updatedAt: string;
};

/** One image in one hand-made collection (schema 10): a public.collection_items row. */
export type CollectionItemRecord = { collectionId: string; generationId: string; userId: string; addedAt: string };

/** Sync cursors and other small facts, keyed by name. */
export type MetaRecord = { key: string; value: unknown };

export const DB_NAME = "promptcanvas";

/** The newest schema version. */
const SCHEMA_VERSION = 10;

/**
 * Declares the schema's versions on `db`, up to `upTo` (the newest by default; tests open a database
 * at an older version with the same declarations, to prove the upgrades).
 */
export function defineSchema(db: Dexie, upTo: number = SCHEMA_VERSION): void {
  db.version(1).stores({
    generations: "id, userId, [userId+createdAt], [userId+isSaved], createdAt",
    tasks: "id, userId, status, [userId+createdAt], createdAt",
    outbox: "++seq, &id, userId, kind, createdAt",
    promptHistory: "id, timestamp, prompt",
    preferences: "userId",
    limits: "userId",
    meta: "key",
  });
  if (upTo < 2) return;
  // 2: tasks carry attempts, a wait and a coded error; [userId+status] finds a user's runnable tasks.
  db.version(2)
    .stores({ tasks: "id, userId, status, [userId+createdAt], [userId+status], createdAt" })
    .upgrade(upgradeTasksToV2);
  if (upTo < 3) return;
  // 3: offline prompt search (*words), library filters ([userId+isPublic]) and an outbox drained in
  // order per user ([userId+seq]) whose conflicts stay listed ([userId+status]).
  db.version(3)
    .stores({
      generations: "id, userId, [userId+createdAt], [userId+isSaved], [userId+isPublic], createdAt, *words",
      outbox: "++seq, &id, userId, kind, createdAt, status, [userId+seq], [userId+status]",
    })
    .upgrade(upgradeToV3);
  if (upTo < 4) return;
  // 4: image bytes move to their own table (see ImageRecord).
  db.version(4).stores({ images: "id, userId" }).upgrade(upgradeToV4);
  if (upTo < 5) return;
  // 5: what is kept of each image, apart from its bytes (see ImageUseRecord).
  db.version(5).stores({ imageUse: "id, userId" }).upgrade(upgradeToV5);
  if (upTo < 6) return;
  // 6: tasks carry docs/spec.md §3's params and, when done, their resultUrl; generations carry
  // NSFWContent false (no index changes).
  db.version(6).stores({}).upgrade(upgradeToV6);
  if (upTo < 7) return;
  // 7: the person's own styles (decision 152), listed by owner and name.
  db.version(7).stores({ customStyles: "id, userId, [userId+name]" });
  // 9: a generation's variations, found by their parent (decision 155).
  if (upTo < 9) return;
  db.version(9).stores({
    generations: "id, userId, [userId+createdAt], [userId+isSaved], [userId+isPublic], createdAt, *words, variation.of",
  });
  if (upTo < 10) return;
  // 10: the person's collections and the images of the hand-made ones (decision 157).
  db.version(10).stores({
    collections: "id, userId, [userId+name]",
    collectionItems: "[collectionId+generationId], userId, collectionId, generationId, [userId+collectionId]",
  });
}

/** The size a task asks for: its ratio's pixels (docs/spec.md §9). */
export function paramsFor(aspectRatio: AspectRatio): TaskParams {
  const { width, height } = DIMENSIONS[aspectRatio];
  return { width, height };
}

/** Where a done task's image is kept: the private bucket's object, as an authenticated read. */
export function resultUrlOf(imagePath: string): string {
  return `/storage/v1/object/authenticated/${GENERATIONS_BUCKET}/${imagePath}`;
}

/**
 * Tasks get their params; a done task whose generation this device holds gets its model and resultUrl;
 * every generation says NSFWContent false.
 */
export async function upgradeToV6(tx: Transaction): Promise<void> {
  const generations = tx.table("generations");
  await generations.toCollection().modify((record: GenerationRecord) => {
    record.NSFWContent = false;
  });
  const tasks = (await tx.table("tasks").toArray()) as Array<Record<string, unknown>>;
  for (const task of tasks) {
    const ratio = isAspectRatio(task.aspectRatio) ? task.aspectRatio : "1:1";
    const params: TaskParams = paramsFor(ratio);
    if (task.status === "done") {
      const made = (await generations.get(task.id as string)) as GenerationRecord | undefined;
      if (made) {
        params.model = made.model;
        task.resultUrl = resultUrlOf(made.imagePath);
      }
    }
    task.params = params;
  }
  await tx.table("tasks").bulkPut(tasks);
}

/** Every image record held gets its row in `imageUse` (nothing viewed yet). */
export async function upgradeToV5(tx: Transaction): Promise<void> {
  const images = (await tx.table("images").toArray()) as Array<{
    id: string;
    userId: string;
    image?: Blob;
    thumbnail?: unknown;
  }>;
  await tx.table("imageUse").bulkPut(
    images.map(({ id, userId, image, thumbnail }): ImageUseRecord => ({
      id,
      userId,
      size: image?.size ?? 0,
      thumbnail: typeof thumbnail === "string" ? 1 : 0,
      viewedAt: 0,
    })),
  );
}

/** Bytes cached inside version 3 records move to `images`; the records keep everything else. */
export async function upgradeToV4(tx: Transaction): Promise<void> {
  const generations = tx.table("generations");
  const withBytes = (await generations.toArray()) as Array<GenerationRecord & { image?: Blob; thumbnail?: Blob }>;
  const images: Array<Omit<ImageRecord, "thumbnail"> & { thumbnail?: Blob }> = [];
  for (const { id, userId, image, thumbnail } of withBytes) {
    if (!image && !thumbnail) continue;
    const moved: (typeof images)[number] = { id, userId };
    if (image) moved.image = image;
    if (thumbnail) moved.thumbnail = thumbnail;
    images.push(moved);
  }
  await tx.table("images").bulkPut(images);
  await generations.toCollection().modify((record: Record<string, unknown>) => {
    delete record.image;
    delete record.thumbnail;
  });
}

/** Existing generations get their search words; existing outbox entries are pending. */
export async function upgradeToV3(tx: Transaction): Promise<void> {
  await tx
    .table("generations")
    .toCollection()
    .modify((record: GenerationRecord) => {
      record.words = promptWords(record.prompt ?? "");
    });
  await tx
    .table("outbox")
    .toCollection()
    .modify((entry: Record<string, unknown>) => {
      entry.status ??= "pending";
    });
}

/** Version 1 tasks had a plain-text error and no attempts; nothing is dropped on the way. */
export async function upgradeTasksToV2(tx: Transaction): Promise<void> {
  await tx
    .table("tasks")
    .toCollection()
    .modify((task: Record<string, unknown>) => {
      task.attempts ??= 0;
      if (typeof task.error === "string") task.error = { code: "server_error", message: task.error };
      delete task.resultId;
    });
}
