// The watch that ends this device's session once the server has ended it elsewhere (decision 129),
// driven by hand: the hint from the database, the page shown again or back online, a rejoin, and the
// server's answer.
import { describe, expect, it } from "vitest";
import type { SessionCheck } from "#src/api/auth.ts";
import type { SessionEndsStatus } from "#src/api/session-ends.ts";
import {
  HINT_SETTLE_MS,
  confirmSession,
  followWatchedUser,
  watchSession,
  type SessionEnd,
} from "#src/app/session-watch.ts";

function harness(answers: SessionCheck[] = ["valid"]) {
  const state = {
    answers: [...answers],
    checks: 0,
    stored: true,
    endingHere: false,
    ended: [] as SessionEnd[],
    hint: () => undefined as void,
    status: (_s: SessionEndsStatus) => undefined as void,
    comeBack: () => undefined as void,
    timers: [] as { fn: () => void; ms: number; cleared: boolean }[],
    listening: true,
  };
  const watch = watchSession({
    check: async () => {
      state.checks += 1;
      return state.answers.shift() ?? "valid";
    },
    stillStored: async () => state.stored,
    listen: (onEnded, onStatus) => {
      state.hint = onEnded;
      state.status = onStatus;
      return () => (state.listening = false);
    },
    onReturn: (listener) => {
      state.comeBack = listener;
      return () => undefined;
    },
    endingHere: () => state.endingHere,
    end: (how) => state.ended.push(how),
    setTimeout: (fn, ms) => {
      const timer = { fn, ms, cleared: false };
      state.timers.push(timer);
      return timer;
    },
    clearTimeout: (handle) => ((handle as { cleared: boolean }).cleared = true),
  });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  /** Fires the timers due so far, as the clock reaching them would. */
  const elapse = async () => {
    for (const t of state.timers.splice(0)) if (!t.cleared) t.fn();
    await settle();
  };
  return { state, watch, elapse, settle };
}

describe("session watch", () => {
  it("asks the server a moment after the hint, and ends a session it says was ended", async () => {
    const { state, elapse } = harness(["session-ended"]);
    state.hint();
    expect(state.checks).toBe(0);
    expect(state.timers.map((t) => t.ms)).toEqual([HINT_SETTLE_MS]);
    await elapse();
    expect(state.checks).toBe(1);
    expect(state.ended).toEqual(["session-ended"]);
  });

  it("tells a deleted account from an ended session", async () => {
    const { state, elapse } = harness(["account-gone"]);
    state.hint();
    await elapse();
    expect(state.ended).toEqual(["account-gone"]);
  });

  it("keeps the session when the server says it holds or cannot be asked", async () => {
    const { state, watch, elapse } = harness(["valid", "unknown"]);
    state.hint();
    await elapse();
    expect(await watch.confirm()).toBe(true);
    expect(state.checks).toBe(2);
    expect(state.ended).toEqual([]);
  });

  it("asks again when the page is shown again or the connection returns, and after a rejoin", async () => {
    const { state, settle } = harness(["valid", "valid", "account-gone"]);
    state.status("SUBSCRIBED"); // the first join: nothing was missed
    await settle();
    expect(state.checks).toBe(0);
    state.comeBack();
    await settle();
    state.status("SUBSCRIBED"); // joined again after a lost connection: a hint may have been missed
    await settle();
    expect(state.checks).toBe(2);
    state.comeBack();
    await settle();
    expect(state.ended).toEqual(["account-gone"]);
  });

  it("announces nothing when this page ends its own session, or another tab has signed this browser out", async () => {
    const own = harness(["session-ended"]);
    own.state.endingHere = true;
    own.state.hint();
    await own.elapse();
    expect(own.state.checks).toBe(0); // its own end is not asked about: the server would refuse the question
    expect(own.state.ended).toEqual([]);
    expect(await own.watch.confirm()).toBe(false); // asked meanwhile, the answer is not news either
    expect(own.state.ended).toEqual([]);
    own.state.endingHere = false;
    expect(await own.watch.confirm()).toBe(true); // the next answer holds

    const otherTab = harness(["session-ended"]);
    otherTab.state.stored = false;
    otherTab.state.hint();
    await otherTab.elapse();
    expect(otherTab.state.checks).toBe(0);
    expect(otherTab.state.ended).toEqual([]);
  });

  it("joins questions in flight and ends the session once", async () => {
    const { state, watch } = harness(["account-gone", "account-gone"]);
    const [a, b] = await Promise.all([watch.confirm(), watch.confirm()]);
    expect([a, b]).toEqual([false, false]);
    expect(await watch.confirm()).toBe(false);
    expect(state.checks).toBe(1);
    expect(state.ended).toEqual(["account-gone"]);
  });

  it("stops listening and drops a pending hint when stopped", async () => {
    const { state, watch, elapse } = harness(["session-ended"]);
    state.hint();
    watch.stop();
    await elapse();
    expect(state.listening).toBe(false);
    expect(state.checks).toBe(0);
  });

  it("answers for the person followed, and holds when nobody is", async () => {
    expect(await confirmSession()).toBe(true);
    const { watch, state } = harness(["account-gone"]);
    followWatchedUser("alice", () => watch);
    expect(await confirmSession()).toBe(false);
    followWatchedUser(null, () => watch);
    expect(state.listening).toBe(false);
    expect(await confirmSession()).toBe(true);
  });
});
