// The billing function's client (issue 45): its answers read defensively, its own failure codes (no payment
// provider: the notice; Stripe away: its sentence), and a refused session renewed once.
import { describe, expect, it, vi } from "vitest";
import {
  choosePlan,
  fetchBillingSummary,
  manageBilling,
  startCheckout,
  summaryOf,
  syncBilling,
} from "#src/api/billing.ts";
import type { InvokeFn } from "#src/api/generate.ts";
import { CREATOR_SUMMARY } from "../../support/billing-summary.ts";

type Answer = { data: unknown; error: unknown };
const failing = (status: number, body: unknown): Answer => ({
  data: null,
  error: Object.assign(new Error("Edge Function returned a non-2xx status code"), {
    context: new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }),
  }),
});

function invokes(...answers: Answer[]) {
  const bodies: unknown[] = [];
  const invoke: InvokeFn = async (name, options) => {
    expect(name).toBe("billing");
    bodies.push(options.body);
    return answers[Math.min(bodies.length, answers.length) - 1];
  };
  return { invoke, bodies };
}

const noRenew = vi.fn(async () => false);

const SUMMARY = CREATOR_SUMMARY;

describe("the billing client", () => {
  it("reads the summary as the function answers it", async () => {
    const { invoke, bodies } = invokes({ data: SUMMARY, error: null });
    const result = await fetchBillingSummary(invoke, noRenew);
    expect(bodies).toEqual([{ action: "summary" }]);
    expect(result).toEqual({ ok: true, value: SUMMARY });
  });

  it("keeps a summary whose parts are missing or odd readable", () => {
    expect(summaryOf({ configured: false, tier: "weird", invoices: [{ id: 3 }, null] })).toEqual({
      configured: false,
      testMode: false,
      tier: "free",
      subscription: null,
      invoices: [],
    });
    expect(summaryOf({ tier: "pro" })).toBeNull();
    expect(summaryOf("nonsense")).toBeNull();
  });

  it("asks for a checkout of the named plan and answers where to go", async () => {
    const { invoke, bodies } = invokes({
      data: { url: "https://checkout.example/cs_1", kind: "checkout" },
      error: null,
    });
    expect(await startCheckout("creator", invoke, noRenew)).toEqual({
      ok: true,
      value: { url: "https://checkout.example/cs_1", kind: "checkout" },
    });
    expect(bodies).toEqual([{ action: "checkout", plan: "creator" }]);
  });

  it("goes to the portal the server answers for a person who has a plan", async () => {
    const { invoke } = invokes({ data: { url: "https://portal.example/bps_1", kind: "portal" }, error: null });
    expect(await choosePlan("pro", invoke)).toEqual({ kind: "redirect", url: "https://portal.example/bps_1" });
  });

  it("never follows an answer whose url is not a web address", async () => {
    const { invoke } = invokes({ data: { url: "javascript:alert(1)", kind: "checkout" }, error: null });
    const answer = await choosePlan("pro", invoke);
    expect(answer.kind).toBe("failed");
  });

  it("answers the spec's notice when no payment provider is connected", async () => {
    const { invoke } = invokes(
      failing(503, { error: { code: "billing_not_configured", message: "Payments are not set up here." } }),
    );
    expect(await choosePlan("creator", invoke)).toEqual({ kind: "notice" });
  });

  it("shows the server's own sentence when Stripe cannot be reached", async () => {
    const message = "Payments can't be reached right now. Nothing was charged; try again in a minute.";
    for (const body of [
      { error: { code: "billing_unavailable", message } },
      { code: "billing_unavailable", message },
    ]) {
      const { invoke } = invokes(failing(502, body));
      expect(await manageBilling(invoke)).toEqual({ kind: "failed", title: "Payments Unavailable", message });
    }
  });

  it("maps a lost connection through the error catalogue", async () => {
    const invoke: InvokeFn = async () => ({
      data: null,
      error: Object.assign(new Error("Failed to send a request to the Edge Function"), { name: "FunctionsFetchError" }),
    });
    const result = await syncBilling("cs_1", invoke, noRenew);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("network_error");
  });

  it("sends the checkout's session id with the sync", async () => {
    const { invoke, bodies } = invokes({ data: SUMMARY, error: null });
    await syncBilling("cs_test_1", invoke, noRenew);
    await syncBilling(null, invoke, noRenew);
    expect(bodies).toEqual([{ action: "sync", sessionId: "cs_test_1" }, { action: "sync" }]);
  });

  it("renews a refused session once and asks again", async () => {
    const { invoke, bodies } = invokes(failing(401, { error: { code: "auth_required", message: "Sign in" } }), {
      data: SUMMARY,
      error: null,
    });
    const renew = vi.fn(async () => true);
    expect((await fetchBillingSummary(invoke, renew)).ok).toBe(true);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(bodies).toHaveLength(2);
  });
});
