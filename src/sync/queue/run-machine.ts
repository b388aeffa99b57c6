// One task's run as the person sees it (docs/spec.md §4): idle, then generating while progress rises 10
// points every 200 ms up to 90, then success at 100, or error and back to idle at 0. The send itself is
// the `generateTask` actor: the queue runner (./queue-runner.ts) starts one run per task its lane
// delivers, with the send through src/sync/run-task.ts, and keeps it while the send is on the wire so
// the generator can show its progress.
import { assign, fromPromise, setup, type ActorRefFrom } from "xstate";
import type { TaskWait } from "../../db/schema";

export const PROGRESS_STEP = 10;
export const PROGRESS_TICK_MS = 200;
export const PROGRESS_CEILING = 90;

/** How the send ended; `wait` when the task stays queued, waiting for something. */
export type GenerateTaskOutput = { status: "done" | "waiting" | "error" | "skipped"; wait?: TaskWait };

export type RunEvent = { type: "run.start" };

export const runMachine = setup({
  types: {
    input: {} as { taskId: string },
    context: {} as { taskId: string; progress: number },
    events: {} as RunEvent,
  },
  actors: {
    generateTask: fromPromise<GenerateTaskOutput, { taskId: string }>(async () => {
      throw new Error("generateTask is provided by the runner");
    }),
  },
  delays: { progressTick: PROGRESS_TICK_MS },
  actions: {
    tick: assign({ progress: ({ context }) => Math.min(PROGRESS_CEILING, context.progress + PROGRESS_STEP) }),
    complete: assign({ progress: 100 }),
    reset: assign({ progress: 0 }),
  },
  guards: {
    belowCeiling: ({ context }) => context.progress < PROGRESS_CEILING,
    finished: (_, output: GenerateTaskOutput) => output.status === "done",
  },
}).createMachine({
  id: "run",
  context: ({ input }) => ({ taskId: input.taskId, progress: 0 }),
  initial: "idle",
  states: {
    idle: { on: { "run.start": { target: "generating", actions: "reset" } } },
    generating: {
      invoke: {
        src: "generateTask",
        input: ({ context }) => ({ taskId: context.taskId }),
        onDone: [
          { guard: { type: "finished", params: ({ event }) => event.output }, target: "success" },
          { target: "error" },
        ],
        onError: { target: "error" },
      },
      initial: "rising",
      states: {
        rising: {
          after: { progressTick: { guard: "belowCeiling", target: "rising", reenter: true, actions: "tick" } },
        },
      },
    },
    success: { entry: "complete", type: "final" },
    error: { always: { target: "idle", actions: "reset" } },
  },
});

export type RunActor = ActorRefFrom<typeof runMachine>;
