// The rate-limit alert's countdown (docs/spec.md §4): hours, minutes and seconds to the person's own reset,
// updated every second, then 'Resetting...' once the moment has passed.
import { assign, setup } from "xstate";

export const COUNTDOWN_TICK_MS = 1_000;
export const RESETTING_LABEL = "Resetting...";

const two = (n: number) => String(n).padStart(2, "0");

/** "HH:MM:SS" until `resetAt`, rounded up to the whole second; "Resetting..." at or past it. */
export function countdownLabel(resetAt: string, now: number): { label: string; past: boolean } {
  const ms = Date.parse(resetAt) - now;
  if (!(ms > 0)) return { label: RESETTING_LABEL, past: true };
  const total = Math.ceil(ms / 1000);
  return {
    label: `${two(Math.floor(total / 3600))}:${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}`,
    past: false,
  };
}

type Context = { resetAt: string; label: string; past: boolean; now: () => number };

export const countdownMachine = setup({
  types: {
    input: {} as { resetAt: string; now?: () => number },
    context: {} as Context,
    events: {} as { type: "countdown.set"; resetAt: string },
  },
  delays: { tick: COUNTDOWN_TICK_MS },
  actions: {
    refresh: assign(({ context }) => countdownLabel(context.resetAt, context.now())),
    setResetAt: assign({ resetAt: ({ event }) => event.resetAt }),
  },
  guards: { past: ({ context }) => context.past },
}).createMachine({
  id: "countdown",
  context: ({ input }) => {
    const now = input.now ?? Date.now;
    return { resetAt: input.resetAt, now, ...countdownLabel(input.resetAt, now()) };
  },
  initial: "check",
  states: {
    check: { always: [{ guard: "past", target: "resetting" }, "counting"] },
    counting: {
      after: { tick: { target: "check", actions: "refresh" } },
    },
    resetting: {},
  },
  on: { "countdown.set": { target: ".check", actions: ["setResetAt", "refresh"] } },
});
