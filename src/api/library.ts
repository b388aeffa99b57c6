// The backend calls of the person's library: the outbox's writes (flags, delete of a generation,
// preferences), the reads the catch-up needs, the live change feed and signed image URLs. Writes
// answer a WriteFailure that says what the drain should do about it, not just what went wrong.
import type { RealtimePostgresChangesPayload } from "@supabase/supabase-js";
import { GENERATIONS_BUCKET, type GenerationRow } from "#shared/vocabulary/rows.ts";
import type { CustomStyleRow } from "#shared/vocabulary/custom-styles.ts";
import type { CollectionItemRow, CollectionRow } from "#shared/vocabulary/collections.ts";
import { cacheImage } from "../db/library";
import { isOnline } from "../lib/online";
import { err, ok, type Result } from "../lib/result";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";

/**
 * offline: the request never reached the server; transient: try again later (5xx, 408, 429);
 * auth: the session must be renewed; rejected: the server refuses this change for good.
 */
export type WriteFailure = { kind: "offline" | "transient" | "auth" | "rejected"; error: AppError };

export type FlagsPatch = { is_saved?: boolean; is_public?: boolean };
export type PreferencesRowPatch = Partial<{
  default_style: string;
  default_quality: string;
  default_aspect_ratio: string;
  notifications_enabled: boolean;
  public_gallery_opt_in: boolean;
  timezone: string;
}>;

/** Reads a failure's HTTP status (0 when the network failed) into what to do next. */
export function writeFailure(status: number, error: unknown): WriteFailure {
  const appError = toAppError(error);
  const text = `${(error as { message?: string } | null)?.message ?? ""} ${(error as { code?: string } | null)?.code ?? ""}`;
  if (!status) return { kind: "offline", error: appError };
  if (status === 401 || /jwt|PGRST30[0-9]/i.test(text)) return { kind: "auth", error: appError };
  if (status >= 500 || status === 408 || status === 429) return { kind: "transient", error: appError };
  return { kind: "rejected", error: appError };
}

export async function guarded<T>(run: () => Promise<Result<T, WriteFailure>>): Promise<Result<T, WriteFailure>> {
  try {
    return await run();
  } catch (e) {
    return err(writeFailure(0, e));
  }
}

/** Sets flags of one row; `found` is false when no row of that id is there for this user (it is gone). */
export function updateGenerationFlags(
  id: string,
  patch: FlagsPatch,
): Promise<Result<{ found: boolean }, WriteFailure>> {
  return guarded(async () => {
    const { data, error, status } = await supabase().from("generations").update(patch).eq("id", id).select("id");
    if (error) return err(writeFailure(status, error));
    return ok({ found: (data ?? []).length > 0 });
  });
}

/**
 * Calls one of the library's functions; its answer, or the failure read from its `{ error: { code,
 * message } }` body (FunctionsHttpError keeps the Response), a fetch that never reached the server
 * (status 0: offline) or the gateway's relay error. A refusal whose message says why (`wordedCodes`)
 * keeps the server's message rather than the catalogue's.
 */
export async function invokeWrite(
  name: string,
  body: Record<string, unknown> | FormData,
  wordedCodes: readonly string[] = [],
): Promise<Result<unknown, WriteFailure & { status: number; code?: string }>> {
  const { data, error } = await supabase().functions.invoke(name, { body });
  if (!error) return ok(data);
  const context = (error as { context?: unknown }).context;
  if (!(context instanceof Response)) {
    const status = error.name === "FunctionsRelayError" ? 502 : 0;
    return err({ ...writeFailure(status, error), status });
  }
  const answer = (await context
    .clone()
    .json()
    .catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  const failure = writeFailure(context.status, answer?.error ? { ...answer, status: context.status } : error);
  const { code, message } = answer?.error ?? {};
  if (code && wordedCodes.includes(code) && typeof message === "string") failure.error.message = message;
  return err({ ...failure, status: context.status, code });
}

/**
 * Deletes one generation, its row and its stored image, in one request to the delete-generation
 * function, which finishes both steps on the server (decision 113). A repeated request succeeds:
 * `rowDeleted` is then false. Hosted Supabase lets no SQL delete Storage objects, so the object goes
 * through the Storage API there, as the caller.
 */
export function deleteGeneration(
  id: string,
  imagePath?: string,
): Promise<Result<{ rowDeleted: boolean }, WriteFailure>> {
  return guarded(async () => {
    const r = await invokeWrite("delete-generation", { generation_id: id, image_path: imagePath });
    if (!r.ok) return err({ kind: r.error.kind, error: r.error.error });
    const answer = r.value as { deleted?: unknown; row_deleted?: unknown } | null;
    if (answer?.deleted !== true) return err(writeFailure(502, { message: "server error: unexpected answer" }));
    return ok({ rowDeleted: answer.row_deleted === true });
  });
}

/** What a refused publish's answer may carry besides the catalogue's codes: the row an operator removed. */
const PUBLISH_WORDED = ["nsfw_content", "publishing_suspended", "invalid_input", "removed_by_operator"];

/**
 * Publishes one generation through publish-generation, the only way into the gallery: the server runs
 * the prompt check and the image check first (decision 141). `found` is false when the row is gone (404).
 * A refusal (nsfw_content, publishing_suspended, an operator's removal) is `rejected`, with the
 * server's words for why.
 */
export function publishGeneration(id: string): Promise<Result<{ found: boolean }, WriteFailure>> {
  return guarded(async (): Promise<Result<{ found: boolean }, WriteFailure>> => {
    const r = await invokeWrite("publish-generation", { generation_id: id }, PUBLISH_WORDED);
    // The function's own 404 (invalid_input) is a row gone; the gateway's (no such function) is not.
    const gone = !r.ok && r.error.status === 404 && r.error.code === "invalid_input";
    if (!r.ok) return gone ? ok({ found: false }) : err({ kind: r.error.kind, error: r.error.error });
    const answer = r.value as { published?: unknown } | null;
    if (answer?.published !== true) return err(writeFailure(502, { message: "server error: unexpected answer" }));
    return ok({ found: true });
  });
}

/** Writes exactly the given preference fields (the row is created if the sign-up trigger never made it). */
export function upsertPreferences(userId: string, patch: PreferencesRowPatch): Promise<Result<null, WriteFailure>> {
  return guarded(async () => {
    const { error, status } = await supabase()
      .from("user_preferences")
      .upsert({ user_id: userId, ...patch }, { onConflict: "user_id" });
    return error ? err(writeFailure(status, error)) : ok(null);
  });
}

/** A row's flags, and whether and why an operator removed it from the gallery (issue 42). */
export type RowFlags = {
  id: string;
  is_saved: boolean;
  is_public: boolean;
  removed_at?: string | null;
  removed_reason?: string | null;
};

/** One page (by id) of the flags of the user's rows created up to `upTo`, for the catch-up. */
export async function fetchGenerationFlags(
  userId: string,
  upTo: string,
  afterId: string | null,
  limit: number,
): Promise<Result<RowFlags[], AppError>> {
  try {
    let query = supabase()
      .from("generations")
      .select("id,is_saved,is_public,removed_at,removed_reason")
      .eq("user_id", userId)
      .lte("created_at", upTo);
    if (afterId) query = query.gt("id", afterId);
    const { data, error } = await query.order("id", { ascending: true }).limit(limit);
    return error ? err(toAppError(error)) : ok((data ?? []) as RowFlags[]);
  } catch (e) {
    return err(toAppError(e));
  }
}

export type GenerationChange =
  | { type: "upsert"; row: GenerationRow }
  | { type: "delete"; id: string }
  /** The person's custom styles (decision 152) come on the same channel. */
  | { type: "style.upsert"; row: CustomStyleRow }
  | { type: "style.delete"; id: string }
  /** The person's collections and the images of the hand-made ones (decision 157), on the same channel. */
  | { type: "collection.upsert"; row: CollectionRow }
  | { type: "collection.delete"; id: string }
  | { type: "item.upsert"; row: CollectionItemRow }
  | { type: "item.delete"; collectionId: string; generationId: string };
export type ChangeFeedStatus = "SUBSCRIBED" | "CLOSED" | "CHANNEL_ERROR" | "TIMED_OUT";

/**
 * Live changes of the user's rows. `onStatus` hears SUBSCRIBED on the first join and on every
 * rejoin after a lost connection (the moment to catch up on what was missed). Returns the unsubscribe.
 *
 * Inserts and updates are asked for with the user_id filter (Realtime re-checks RLS for each). Deletes
 * cannot be filtered: Realtime matches a filter against the old values the log carries, which for this
 * table (default replica identity) are only the primary key, so a filtered DELETE never arrives. They
 * are asked for unfiltered and arrive for every deleted generation, anyone's, as the id alone; the
 * caller applies one only to a record of this user's that it holds (applyServerDelete checks).
 */
export function subscribeGenerationChanges(
  userId: string,
  onChange: (change: GenerationChange) => void,
  onStatus: (status: ChangeFeedStatus) => void,
): () => void {
  const client = supabase();
  const table = { schema: "public", table: "generations" } as const;
  const mine = { ...table, filter: `user_id=eq.${userId}` };
  const upsert = (payload: RealtimePostgresChangesPayload<Record<string, unknown>>) =>
    onChange({ type: "upsert", row: payload.new as unknown as GenerationRow });
  const styles = { schema: "public", table: "custom_styles", filter: `user_id=eq.${userId}` } as const;
  const styleUpsert = (payload: RealtimePostgresChangesPayload<Record<string, unknown>>) =>
    onChange({ type: "style.upsert", row: payload.new as unknown as CustomStyleRow });
  const channel = client
    // Private: only the person may join it or send on it (decision 128, realtime.messages policies).
    .channel(`library:${userId}`, { config: { private: true } })
    .on("postgres_changes", { ...mine, event: "INSERT" }, upsert)
    .on("postgres_changes", { ...mine, event: "UPDATE" }, upsert)
    .on(
      "postgres_changes",
      { ...table, event: "DELETE" },
      (payload: RealtimePostgresChangesPayload<Record<string, unknown>>) => {
        const id = (payload.old as { id?: unknown }).id;
        if (typeof id === "string") onChange({ type: "delete", id });
      },
    )
    // The person's custom styles (decision 152), on the same channel and with the same rule for deletes.
    .on("postgres_changes", { ...styles, event: "INSERT" }, styleUpsert)
    .on("postgres_changes", { ...styles, event: "UPDATE" }, styleUpsert)
    .on("postgres_changes", { schema: "public", table: "custom_styles", event: "DELETE" }, (payload) => {
      const id = (payload.old as { id?: unknown }).id;
      if (typeof id === "string") onChange({ type: "style.delete", id });
    });
  followCollections(channel, userId, onChange);
  channel.subscribe((status) => onStatus(status as ChangeFeedStatus));
  return () => void client.removeChannel(channel);
}

type Channel = ReturnType<ReturnType<typeof supabase>["channel"]>;
type Payload = RealtimePostgresChangesPayload<Record<string, unknown>>;

/**
 * The person's collections and their items (decision 157), with the same rule for deletes: unfiltered, as
 * the key alone (an item's is its collection and image), applied only to a record of the person's own.
 * Items are added and removed, never changed.
 */
function followCollections(channel: Channel, userId: string, onChange: (change: GenerationChange) => void): void {
  const mine = { schema: "public", filter: `user_id=eq.${userId}` } as const;
  const collection = (payload: Payload) =>
    onChange({ type: "collection.upsert", row: payload.new as unknown as CollectionRow });
  channel
    .on("postgres_changes", { ...mine, table: "collections", event: "INSERT" }, collection)
    .on("postgres_changes", { ...mine, table: "collections", event: "UPDATE" }, collection)
    .on("postgres_changes", { schema: "public", table: "collections", event: "DELETE" }, (payload: Payload) => {
      const id = (payload.old as { id?: unknown }).id;
      if (typeof id === "string") onChange({ type: "collection.delete", id });
    })
    .on("postgres_changes", { ...mine, table: "collection_items", event: "INSERT" }, (payload: Payload) =>
      onChange({ type: "item.upsert", row: payload.new as unknown as CollectionItemRow }),
    )
    .on("postgres_changes", { schema: "public", table: "collection_items", event: "DELETE" }, (payload: Payload) => {
      const { collection_id: collectionId, generation_id: generationId } = payload.old as Record<string, unknown>;
      if (typeof collectionId === "string" && typeof generationId === "string") {
        onChange({ type: "item.delete", collectionId, generationId });
      }
    });
}

/** How long a signed image URL stays valid. */
export const SIGNED_URL_SECONDS = 3600;

/**
 * A signed URL for a stored image. With `cacheFor` (the generation's id) the bytes are fetched
 * and kept with the record, so the image opens offline from then on.
 */
export async function signedImageUrl(path: string, cacheFor?: string): Promise<Result<string, AppError>> {
  const url = await signUrl(path);
  if (!url.ok || !cacheFor) return url;
  try {
    const response = await fetch(url.value);
    if (response.ok) await cacheImage(cacheFor, await response.blob());
  } catch {
    // The signed URL is still good to show; the bytes are kept on a later showing.
  }
  return url;
}

async function signUrl(path: string): Promise<Result<string, AppError>> {
  try {
    const { data, error } = await supabase().storage.from(GENERATIONS_BUCKET).createSignedUrl(path, SIGNED_URL_SECONDS);
    if (error || !data) return err(toAppError(error ?? "server error: no signed URL"));
    return ok(data.signedUrl);
  } catch (e) {
    return err(toAppError(e));
  }
}

/** Why a stored image could not be fetched: `offline` when the request never reached the server. */
export type ImageFetchFailure = { offline: boolean; error: AppError };

/** The bytes of a stored image (through a signed URL), for the offline library's background fill. */
/** How long one stored image may take to arrive (a full image is about a megabyte). */
export const IMAGE_FETCH_TIMEOUT_MS = 90_000;

export async function fetchStoredImage(path: string): Promise<Result<Blob, ImageFetchFailure>> {
  const url = await signUrl(path);
  if (!url.ok) return err({ offline: url.error.code === "network_error" || !isOnline(), error: url.error });
  try {
    // A stalled download must not hold its caller (a view, or the background fill's one-at-a-time
    // pass) forever: past IMAGE_FETCH_TIMEOUT_MS it fails like any other failed fetch, not as offline.
    const response = await fetch(url.value, { signal: AbortSignal.timeout(IMAGE_FETCH_TIMEOUT_MS) });
    if (!response.ok) return err({ offline: false, error: toAppError(`HTTP ${response.status}`) });
    return ok(await response.blob());
  } catch (e) {
    const timedOut = e instanceof DOMException && e.name === "TimeoutError";
    return err({ offline: !timedOut, error: toAppError(e) });
  }
}
