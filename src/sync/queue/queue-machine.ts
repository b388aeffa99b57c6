// The scheduler (docs/architecture.md, "A generation, end to end"): starts queued tasks that are due,
// oldest first, up to the concurrency minus those running, and never one already in flight. It learns
// the queue from 'tasks.changed' (a Dexie live query in the runner), wakes at the soonest timed wait
// (backoff, quota reset), and holds everything while offline or signed out. Each send is a child run
// machine. In drain mode (the service worker) it stops once nothing is due and nothing is in flight.
import { CONCURRENCY_DEFAULT, CONCURRENCY_MAX, CONCURRENCY_MIN } from "#shared/vocabulary/generation.ts";
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom } from "xstate";
import type { TaskWait } from "../../db/schema";
import { isDue, nextWakeAt } from "../task-wait";
import { reportingRunMachine, runMachine, type RunFinished } from "./run-machine";

/** What the scheduler knows of a queued task: ids and timing, never the row. */
export type QueueEntry = { id: string; createdAt: string; wait?: TaskWait };

export type QueueInput = {
  concurrency?: number;
  online?: boolean;
  signedIn?: boolean;
  drain?: boolean;
  /** The clock the waits are compared with (tests pass the simulated clock's). */
  now?: () => number;
};

export type QueueContext = {
  concurrency: number;
  online: boolean;
  signedIn: boolean;
  drain: boolean;
  /** Whether the first 'tasks.changed' has arrived (drain mode must not stop before it). */
  loaded: boolean;
  queued: QueueEntry[];
  inFlight: string[];
  now: () => number;
};

export type QueueEvent =
  | { type: "tasks.changed"; tasks: QueueEntry[] }
  | { type: "task.added"; task: QueueEntry }
  | { type: "concurrency.set"; value: number }
  | { type: "connectivity.online" }
  | { type: "connectivity.offline" }
  | { type: "auth.changed"; signedIn: boolean }
  | RunFinished;

/** setTimeout's longest delay; a wait further out is re-checked then. */
const MAX_DELAY_MS = 2 ** 31 - 1;

export const clampConcurrency = (n: number) =>
  Number.isFinite(n) ? Math.min(CONCURRENCY_MAX, Math.max(CONCURRENCY_MIN, Math.round(n))) : CONCURRENCY_DEFAULT;

export const runChildId = (taskId: string) => `run:${taskId}`;

/** The tasks to start now, oldest first. */
export function tasksToStart(context: QueueContext): string[] {
  if (!context.signedIn) return [];
  const slots = context.concurrency - context.inFlight.length;
  if (slots <= 0) return [];
  const now = context.now();
  return context.queued
    .filter((t) => !context.inFlight.includes(t.id) && isDue(t.wait, now, context.online))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .slice(0, slots)
    .map((t) => t.id);
}

function wakeAt(context: QueueContext): number | null {
  if (!context.signedIn || !context.online) return null;
  const waiting = context.queued.filter((t) => !context.inFlight.includes(t.id)).map((t) => t.wait);
  return nextWakeAt(waiting, context.now());
}

export const queueMachine = setup({
  types: {
    input: {} as QueueInput,
    context: {} as QueueContext,
    events: {} as QueueEvent,
  },
  actors: {
    run: reportingRunMachine,
    /** Lifts the 'auth' waits in Dexie once a session is back (the runner provides it). */
    releaseAuthWaits: fromPromise<void, void>(async () => undefined),
  },
  delays: {
    untilNextWake: ({ context }) => Math.min(MAX_DELAY_MS, Math.max(0, (wakeAt(context) ?? 0) - context.now())),
  },
  guards: {
    drained: ({ context }) =>
      context.drain && context.loaded && !context.inFlight.length && !tasksToStart(context).length,
    hasWake: ({ context }) => wakeAt(context) !== null,
  },
  actions: {
    startDue: enqueueActions(({ context, enqueue }) => {
      const ids = tasksToStart(context);
      if (!ids.length) return;
      enqueue.assign({ inFlight: [...context.inFlight, ...ids] });
      for (const taskId of ids) {
        enqueue.spawnChild("run", { id: runChildId(taskId), input: { taskId } });
        enqueue.sendTo(runChildId(taskId), { type: "run.start" });
      }
    }),
    setTasks: assign(({ event }) => (event.type === "tasks.changed" ? { queued: event.tasks, loaded: true } : {})),
    addTask: assign({
      queued: ({ context, event }) =>
        event.type === "task.added" && !context.queued.some((t) => t.id === event.task.id)
          ? [...context.queued, event.task]
          : context.queued,
    }),
    setConcurrency: assign({
      concurrency: ({ context, event }) =>
        event.type === "concurrency.set" ? clampConcurrency(event.value) : context.concurrency,
    }),
    finishRun: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== "run.finished") return;
      enqueue.stopChild(runChildId(event.taskId));
      // Until Dexie says more, the task is where its run left it: waiting, or gone from the queue.
      const queued = event.wait
        ? context.queued.map((t) => (t.id === event.taskId ? { ...t, wait: event.wait } : t))
        : context.queued.filter((t) => t.id !== event.taskId);
      enqueue.assign({ inFlight: context.inFlight.filter((id) => id !== event.taskId), queued });
    }),
  },
}).createMachine({
  id: "queue",
  context: ({ input }) => ({
    concurrency: clampConcurrency(input.concurrency ?? CONCURRENCY_DEFAULT),
    online: input.online ?? true,
    signedIn: input.signedIn ?? true,
    drain: input.drain ?? false,
    loaded: false,
    queued: [],
    inFlight: [],
    now: input.now ?? Date.now,
  }),
  initial: "active",
  states: {
    active: {
      initial: "check",
      states: {
        // Every change lands here: start what is due, then finish (drain), sleep until the next
        // timed wait, or idle until something happens.
        check: {
          entry: "startDue",
          always: [{ guard: "drained", target: "#queue.drained" }, { guard: "hasWake", target: "timed" }, "idle"],
        },
        timed: { after: { untilNextWake: { target: "check", reenter: true } } },
        idle: {},
      },
      on: {
        "tasks.changed": { target: ".check", reenter: true, actions: "setTasks" },
        "task.added": { target: ".check", reenter: true, actions: "addTask" },
        "concurrency.set": { target: ".check", reenter: true, actions: "setConcurrency" },
        "connectivity.online": { target: ".check", reenter: true, actions: assign({ online: true }) },
        "connectivity.offline": { target: ".check", reenter: true, actions: assign({ online: false }) },
        "auth.changed": [
          {
            guard: ({ event }) => event.signedIn,
            target: ".check",
            reenter: true,
            actions: [
              assign({ signedIn: true }),
              enqueueActions(({ enqueue }) => enqueue.spawnChild("releaseAuthWaits")),
            ],
          },
          { target: ".check", reenter: true, actions: assign({ signedIn: false }) },
        ],
        "run.finished": { target: ".check", reenter: true, actions: "finishRun" },
      },
    },
    drained: { type: "final" },
  },
});

export type QueueActor = ActorRefFrom<typeof queueMachine>;
export type RunActor = ActorRefFrom<typeof runMachine>;
