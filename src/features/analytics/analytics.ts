// Who an error or a measurement belongs to, decided from the session (docs/spec.md §5: with no signed-in
// person nothing is recorded), and what reaches the recorder: each distinct error once per page load,
// at most MAX_ERROR_EVENTS_PER_PAGE of them. The recorder (src/sync/telemetry.ts, with supabase-js and
// Dexie behind it) loads only once someone is signed in, so a visitor's page never pays for it.
import type { Telemetry, TelemetryItem, VitalMeasurement } from "../../sync/telemetry";
import type { SessionView } from "../../state/session-store";
import { errorMetadata, errorSignature, type ErrorCapture } from "./error-payload";

export const MAX_ERROR_EVENTS_PER_PAGE = 20;
/** Reports held while the session is still being checked (an auth link just opened). */
export const MAX_WAITING_REPORTS = 20;

export type AnalyticsDeps = {
  session: { get: () => SessionView; subscribe: (listener: () => void) => () => void };
  loadTelemetry: () => Promise<Telemetry>;
  /** Items an earlier page could not store as it closed (see unload-spill.ts). */
  takeSpilled?: () => TelemetryItem[];
  /** Keeps items this page cannot store as it closes. */
  spill?: (items: TelemetryItem[]) => void;
  warn: (message: string) => void;
};

export type Analytics = {
  captureError(capture: ErrorCapture): void;
  recordVital(vital: VitalMeasurement): void;
  /** Sends what waits (the page went online or is being hidden). */
  flush(): void;
  /** The page may be going away: keep what is not stored yet. */
  pageHide(): void;
  /** The page is back: take back what pageHide kept (ids make a second copy harmless). */
  reclaim(): void;
  stop(): void;
};

type Report = (userId: string, telemetry: Telemetry) => void;

export function createAnalytics(deps: AnalyticsDeps): Analytics {
  let recorder: Telemetry | null = null;
  let loading: Promise<Telemetry | null> | null = null;
  let waiting: Report[] = [];
  const seen = new Set<string>();

  function reclaim(telemetry: Telemetry | null): void {
    if (!telemetry) return;
    const spilled = deps.takeSpilled?.() ?? [];
    if (spilled.length > 0) telemetry.restore(spilled);
  }

  function load(): Promise<Telemetry | null> {
    loading ??= deps.loadTelemetry().then(
      (telemetry) => {
        recorder = telemetry;
        reclaim(telemetry);
        return telemetry;
      },
      (e: unknown) => {
        loading = null; // a failed chunk load may work next time
        deps.warn(`[analytics] recorder not loaded: ${e instanceof Error ? e.name : "error"}`);
        return null;
      },
    );
    return loading;
  }

  function report(act: Report): void {
    const view = deps.session.get();
    if (view.status === "signed-out") return;
    if (!view.user) {
      if (waiting.length < MAX_WAITING_REPORTS) waiting.push(act);
      return;
    }
    const userId = view.user.id;
    if (recorder) act(userId, recorder);
    else void load().then((telemetry) => telemetry && act(userId, telemetry));
  }

  function onSession(): void {
    const view = deps.session.get();
    if (view.status === "signed-out") {
      waiting = [];
      deps.takeSpilled?.(); // what a closing page kept goes with the rest of the person's data
    }
    if (view.status !== "signed-in" || !view.user) return;
    const held = waiting;
    waiting = [];
    held.forEach(report);
    // Loaded now, so a measurement reported while the page hides is recorded without waiting;
    // and whatever an earlier visit left waiting is sent.
    void load().then((telemetry) => telemetry?.flush());
  }

  const unsubscribe = deps.session.subscribe(onSession);
  onSession();

  return {
    captureError(capture) {
      if (deps.session.get().status === "signed-out") return;
      const metadata = errorMetadata(capture);
      const signature = errorSignature(metadata);
      if (seen.has(signature) || seen.size >= MAX_ERROR_EVENTS_PER_PAGE) return;
      seen.add(signature);
      report((userId, telemetry) => telemetry.recordEvent(userId, "error", metadata));
    },
    recordVital(vital) {
      report((userId, telemetry) => telemetry.recordVital(userId, vital));
    },
    flush() {
      void recorder?.flush();
    },
    pageHide() {
      const unsent = recorder?.unsent() ?? [];
      if (unsent.length > 0) deps.spill?.(unsent);
    },
    reclaim: () => reclaim(recorder),
    stop: unsubscribe,
  };
}
