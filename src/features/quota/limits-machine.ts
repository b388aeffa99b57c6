// Keeps the limits record fresh (docs/spec.md §4): re-read every 30 s while the page is visible and 500 ms
// after a generation; paused while hidden and re-read on return. The read (server -> Dexie) is the
// provided `readLimits` actor; views read the record from Dexie.
import { fromPromise, setup } from "xstate";

export const LIMITS_POLL_MS = 30_000;
export const LIMITS_AFTER_GENERATION_MS = 500;

export type LimitsEvent =
  { type: "visibility.visible" } | { type: "visibility.hidden" } | { type: "generation.finished" };

export const limitsMachine = setup({
  types: { input: {} as { visible?: boolean }, context: {} as { visible: boolean }, events: {} as LimitsEvent },
  actors: { readLimits: fromPromise<void, void>(async () => undefined) },
  delays: { poll: LIMITS_POLL_MS, afterGeneration: LIMITS_AFTER_GENERATION_MS },
  guards: { startsVisible: ({ context }) => context.visible },
}).createMachine({
  id: "limits",
  context: ({ input }) => ({ visible: input.visible ?? true }),
  initial: "start",
  states: {
    start: { always: [{ guard: "startsVisible", target: "visible" }, "hidden"] },
    visible: {
      initial: "reading",
      states: {
        reading: {
          invoke: { src: "readLimits", onDone: "waiting", onError: "waiting" },
        },
        waiting: { after: { poll: "reading" } },
        soon: { after: { afterGeneration: "reading" } },
      },
      on: {
        "visibility.hidden": "hidden",
        "generation.finished": ".soon",
      },
    },
    hidden: {
      on: {
        "visibility.visible": "visible",
        // A generation while hidden (a background tab's queue) still needs its figures once seen.
        "generation.finished": {},
      },
    },
  },
});
