// One task's run as the person sees it (docs/spec.md §4): idle, then generating while progress rises 10
// points every 200 ms up to 90, then success at 100, or error and back to idle at 0. The send
// itself is the `generateTask` actor (src/sync/run-task.ts, provided by the runner); the machine
// reports the end of the run (`reportFinished`), which the queue's copy sends to the queue.
import { assign, fromPromise, sendParent, setup } from "xstate";
import type { TaskWait } from "../../db/schema";

export const PROGRESS_STEP = 10;
export const PROGRESS_TICK_MS = 200;
export const PROGRESS_CEILING = 90;

/** How the send ended; `wait` when the task stays queued, waiting for something. */
export type GenerateTaskOutput = { status: "done" | "waiting" | "error" | "skipped"; wait?: TaskWait };

export type RunEvent = { type: "run.start" };
export type RunFinished = { type: "run.finished"; taskId: string; ok: boolean; wait?: TaskWait };

export const runMachine = setup({
  types: {
    input: {} as { taskId: string },
    context: {} as { taskId: string; progress: number; wait?: TaskWait },
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
    /** Tells whoever runs this machine that the run is over; a stand-alone run tells no one. */
    reportFinished: (_, _params: { ok: boolean }) => undefined,
    keepWait: assign({ wait: (_, output: GenerateTaskOutput | undefined) => output?.wait }),
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
          { target: "error", actions: { type: "keepWait", params: ({ event }) => event.output } },
        ],
        onError: { target: "error", actions: { type: "keepWait", params: () => undefined } },
      },
      initial: "rising",
      states: {
        rising: {
          after: { progressTick: { guard: "belowCeiling", target: "rising", reenter: true, actions: "tick" } },
        },
      },
    },
    success: { entry: ["complete", { type: "reportFinished", params: { ok: true } }], type: "final" },
    error: { entry: { type: "reportFinished", params: { ok: false } }, always: { target: "idle", actions: "reset" } },
  },
});

/** The run as the queue's child: it reports to the queue how it ended. */
export const reportingRunMachine = runMachine.provide({
  actions: {
    reportFinished: sendParent(({ context }, params: { ok: boolean }): RunFinished => ({
      type: "run.finished",
      taskId: context.taskId,
      ok: params.ok,
      wait: context.wait,
    })),
  },
});
