// The signed URL a generate answer brought, for the moments between the answer and the bytes being kept
// on this device: the preview shows the new image from it at once (the browser fetches and decodes it
// off the main thread) instead of waiting for the fetch, the thumbnail and the Dexie write that follow
// the task's end (src/sync/run-task.ts keepImage). In-memory and per context: the service worker's
// drain shows nothing, and a reload falls back to the kept bytes or a new signed URL.
const fresh = new Map<string, { url: string; until: number }>();

/** How long an answer's URL is offered (well inside its signed lifetime). */
const FRESH_MS = 10 * 60_000;

/** At most this many are remembered (a long batch): the oldest go first. */
const MAX_FRESH = 64;

export function rememberFreshImage(id: string, url: string, now: number = Date.now()): void {
  fresh.delete(id);
  fresh.set(id, { url, until: now + FRESH_MS });
  for (const key of fresh.keys()) {
    if (fresh.size <= MAX_FRESH) break;
    fresh.delete(key);
  }
}

/** The answer's signed URL for generation `id`, while fresh. */
export function freshImageUrl(id: string, now: number = Date.now()): string | undefined {
  const entry = fresh.get(id);
  if (entry && entry.until > now) return entry.url;
  fresh.delete(id);
  return undefined;
}

/** A URL whose download failed is not offered again: the view signs a new one. */
export function forgetFreshImage(id: string): void {
  fresh.delete(id);
}
