// A library read for useLiveQuery whose failure becomes a message the page shows (docs/spec.md §8: a
// history load failure is stored and shown, and loading ends) instead of the router's error screen.
import type { GenerationRecord } from "../../db/schema";

export type Loaded = { items: GenerationRecord[]; error?: undefined } | { items?: undefined; error: string };

export function loadSafely(read: () => Promise<GenerationRecord[]>): Promise<Loaded> {
  return read().then(
    (items) => ({ items }),
    (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
  );
}
