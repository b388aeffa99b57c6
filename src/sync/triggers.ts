// The moments that can make stored work deliverable, written once for every lane (src/sync/delivery.ts):
// the connection is back, the page is shown again, a session was renewed, the browser fires Background
// Sync, a Web Lock another runner held is free, a timer. Each is a subscription returning its
// unsubscribe; the sources (window, document, locks, the worker's global, the clock) are injectable
// so tests drive them by hand.
import { systemClock, type Clock } from "./delivery";

type Listenable = {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
};
type VisibleDocument = Listenable & { visibilityState: DocumentVisibilityState };
export type LockManagerLike = {
  request(
    name: string,
    options: { mode?: "shared" | "exclusive"; signal?: AbortSignal },
    callback: () => unknown,
  ): Promise<unknown>;
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
  clock?: Clock;
};

export type Trigger =
  | { on: "online" }
  | { on: "offline" }
  | { on: "visible" }
  | { on: "hidden" }
  | { on: "session" }
  | { on: "sync"; tag: string }
  | { on: "lock-freed"; name: string }
  | { on: "timer"; everyMs: number };

/** What fired; `hiddenForMs` says how long a page now visible was hidden (0 if unknown). */
export type Fired = { on: Trigger["on"]; hiddenForMs?: number };

/** A Background Sync listener's promise is handed to the event's waitUntil (a rejection is retried by the browser). */
export type TriggerListener = (fired: Fired) => void | Promise<void>;

export function browserSources(): TriggerSources {
  const scope = globalThis as Partial<typeof globalThis>;
  return {
    window: typeof window !== "undefined" ? window : undefined,
    document: typeof document !== "undefined" ? document : undefined,
    locks: typeof navigator !== "undefined" ? (navigator.locks as LockManagerLike | undefined) : undefined,
    worker: typeof window === "undefined" && scope.addEventListener ? (scope as unknown as Listenable) : undefined,
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
  const fire = (fired: Fired) => {
    const result = listener(fired);
    return result instanceof Promise ? result : Promise.resolve();
  };
  switch (trigger.on) {
    case "online":
    case "offline":
      return listen(sources.window, trigger.on, () => void fire({ on: trigger.on }));
    case "visible":
    case "hidden": {
      const doc = sources.document;
      let hiddenAt = doc?.visibilityState === "hidden" ? clock.now() : 0;
      return listen(doc, "visibilitychange", () => {
        if (doc!.visibilityState === "hidden") {
          hiddenAt = clock.now();
          if (trigger.on === "hidden") void fire({ on: "hidden" });
          return;
        }
        if (trigger.on === "visible") void fire({ on: "visible", hiddenForMs: hiddenAt ? clock.now() - hiddenAt : 0 });
        hiddenAt = 0;
      });
    }
    case "session":
      return sources.session ? sources.session(() => void fire({ on: "session" })) : none;
    case "sync":
      return listen(sources.worker, "sync", (event) => {
        const sync = event as SyncEventLike;
        if (sync.tag !== trigger.tag) return;
        const done = fire({ on: "sync" });
        if (sync.waitUntil) sync.waitUntil(done);
        else void done.catch(none);
      });
    case "lock-freed": {
      // A shared request is granted once no one holds the lock exclusively; it is let go at once.
      if (!sources.locks) return none;
      const abort = new AbortController();
      sources.locks
        .request(trigger.name, { mode: "shared", signal: abort.signal }, () => undefined)
        .then(() => {
          if (!abort.signal.aborted) void fire({ on: "lock-freed" });
        })
        .catch(none);
      return () => abort.abort();
    }
    case "timer": {
      let handle: unknown;
      let live = true;
      const tick = () => {
        if (!live) return;
        void fire({ on: "timer" });
        handle = clock.setTimeout(tick, trigger.everyMs);
      };
      handle = clock.setTimeout(tick, trigger.everyMs);
      return () => {
        live = false;
        clock.clearTimeout(handle);
      };
    }
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
