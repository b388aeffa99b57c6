// The moments that can make stored work deliverable, written once for every lane (src/sync/runner.ts
// subscribes them): the connection is back (or gone), the page is shown again, a session was renewed,
// the browser fires Background Sync, the person's quota rose above 0. Each is a subscription returning its unsubscribe; the sources
// (window, document, locks, the worker's global, the clock) are injectable so tests drive them by hand.
import { systemClock, type Clock } from "./delivery";

type Listenable = {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
};
type VisibleDocument = Listenable & { visibilityState: DocumentVisibilityState };
export type LockManagerLike = {
  request(name: string, options: { signal?: AbortSignal }, callback: () => unknown): Promise<unknown>;
  /** The locks held and asked for (the worker's drain hands the queue to a page that asks). */
  query?(): Promise<{ pending?: { name?: string }[] }>;
};
type SyncEventLike = Event & { tag?: string; waitUntil?(promise: Promise<unknown>): void };

export type TriggerSources = {
  window?: Listenable;
  document?: VisibleDocument;
  locks?: LockManagerLike;
  /** The service worker's global (its 'sync' events). */
  worker?: Listenable;
  /** Calls back when a session is renewed (sign-in, token refresh); returns its unsubscribe. */
  session?: (listener: () => void) => () => void;
  /** Calls back when this person's known quota rises above 0 (src/sync/quota-raises.ts); returns its unsubscribe. */
  quota?: (listener: () => void) => () => void;
  clock?: Clock;
};

export type Trigger =
  | { on: "online" }
  | { on: "offline" }
  | { on: "visible" }
  | { on: "session" }
  | { on: "quota" }
  | { on: "sync"; tag: string };

/** What fired; `hiddenForMs` says how long a page now visible was hidden (0 if unknown). */
export type Fired = { on: Trigger["on"]; hiddenForMs?: number };

/** A Background Sync listener's promise is handed to the event's waitUntil (a rejection is retried by the browser). */
export type TriggerListener = (fired: Fired) => void | Promise<void>;

/** The page's sources (the service worker passes its global as `worker`). */
export function browserSources(): TriggerSources {
  return {
    window: typeof window !== "undefined" ? window : undefined,
    document: typeof document !== "undefined" ? document : undefined,
    locks: typeof navigator !== "undefined" ? (navigator.locks as LockManagerLike | undefined) : undefined,
    clock: systemClock,
  };
}

const none = () => undefined;

function listen(target: Listenable | undefined, type: string, handler: (event: Event) => void): () => void {
  if (!target) return none;
  target.addEventListener(type, handler);
  return () => target.removeEventListener(type, handler);
}

/** Subscribes `listener` to one trigger; a source that is absent never fires. */
export function subscribe(
  trigger: Trigger,
  listener: TriggerListener,
  sources: TriggerSources = browserSources(),
): () => void {
  const clock = sources.clock ?? systemClock;
  const fire = (fired: Fired) => Promise.resolve(listener(fired));
  switch (trigger.on) {
    case "online":
    case "offline":
      return listen(sources.window, trigger.on, () => void fire({ on: trigger.on }));
    case "visible": {
      const doc = sources.document;
      let hiddenAt = doc?.visibilityState === "hidden" ? clock.now() : 0;
      return listen(doc, "visibilitychange", () => {
        if (doc!.visibilityState === "hidden") return void (hiddenAt = clock.now());
        void fire({ on: "visible", hiddenForMs: hiddenAt ? clock.now() - hiddenAt : 0 });
        hiddenAt = 0;
      });
    }
    case "session":
      return sources.session ? sources.session(() => void fire({ on: "session" })) : none;
    case "quota":
      return sources.quota ? sources.quota(() => void fire({ on: "quota" })) : none;
    case "sync":
      return listen(sources.worker, "sync", (event) => {
        const sync = event as SyncEventLike;
        if (sync.tag !== trigger.tag) return;
        const done = fire({ on: "sync" });
        if (sync.waitUntil) sync.waitUntil(done);
        else void done.catch(none);
      });
  }
}

/** Several triggers, one listener, one unsubscribe. */
export function subscribeAll(
  triggers: readonly Trigger[],
  listener: TriggerListener,
  sources: TriggerSources = browserSources(),
): () => void {
  const offs = triggers.map((t) => subscribe(t, listener, sources));
  return () => offs.forEach((off) => off());
}
