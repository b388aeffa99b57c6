// The client's source of truth (architecture §4): record shapes and the Dexie schema versions.
// Versions are appended, newest last; a shipped version is never edited (house rule 6).
import type { Dexie } from "dexie";

export type Quality = "standard" | "high" | "ultra";
export type AspectRatio = "1:1" | "16:9" | "9:16";

/** A server `generations` row as the client keeps it, plus the cached image bytes. */
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
  image?: Blob;
  thumbnail?: Blob;
};

export type TaskStatus = "queued" | "running" | "done" | "error";

/** A queued generation request; its id is the request id the server deduplicates on. */
export type TaskRecord = {
  id: string;
  userId: string;
  type: "image-generation";
  prompt: string;
  negativePrompt: string;
  style: string;
  quality: Quality;
  aspectRatio: AspectRatio;
  seed: number | null;
  referenceImage?: string;
  provider?: string;
  status: TaskStatus;
  error?: string;
  resultId?: string;
  createdAt: string;
  updatedAt: string;
};

/** A write that must reach the server; added in the same transaction as the local change. */
export type OutboxEntry = {
  seq?: number;
  id: string;
  userId: string;
  kind: string;
  payload: unknown;
  attempts: number;
  createdAt: string;
  /** Set when the entry waits for something (a sign-in, a fix) rather than for the network. */
  parkedReason?: string;
};

export type PromptHistoryRecord = {
  id: string;
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

export type LimitsRecord = {
  userId: string;
  generationsToday: number;
  dailyLimit: number;
  remaining: number;
  resetAt: string;
  tier: "free" | "pro" | "premium";
  checkedAt: string;
};

/** Sync cursors and other small facts, keyed by name. */
export type MetaRecord = { key: string; value: unknown };

export const DB_NAME = "promptcanvas";

export function defineSchema(db: Dexie): void {
  db.version(1).stores({
    generations: "id, userId, [userId+createdAt], [userId+isSaved], createdAt",
    tasks: "id, userId, status, [userId+createdAt], createdAt",
    outbox: "++seq, &id, userId, kind, createdAt",
    promptHistory: "id, timestamp, prompt",
    preferences: "userId",
    limits: "userId",
    meta: "key",
  });
}
