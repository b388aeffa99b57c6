// The billing and stripe-webhook functions on the local backend (with its Stripe stand-in), as a hostile
// client would call them, on PGlite and PostgreSQL: bodies that are not what they take (deep, huge, not
// JSON, wrong types, hostile text in every field), forged and missing tokens and signatures, signed events
// that are not events, and someone else's checkout session. Every one is answered 4xx with a code (or, for
// a signed event that names no customer of ours, 200 as Stripe expects), never 5xx, a hang or a dropped
// connection; no customer is made and the tier stays free.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Stripe from "stripe";
import { afterAll, expect, it } from "vitest";
import { describeOnBackends, people } from "../support/backend-suite.ts";
import { serviceClient } from "../support/clients.ts";
import * as hostile from "../support/hostile.ts";
import type { Answer, ProbeResult } from "../support/hostile.ts";

const BILLING = "/functions/v1/billing";
const WEBHOOK = "/functions/v1/stripe-webhook";
const results: ProbeResult[] = [];

afterAll(() => {
  if (results.length)
    console.log(`\nbilling and stripe-webhook: hostile answers by class\n${hostile.report(results)}\n`);
});

type Probe = [string, () => Promise<Answer | Answer[]>];

describeOnBackends(
  "billing and stripe-webhook on $title",
  { prefix: "pc_hostile_billing" },
  (b, { postgres, skip }) => {
    const [person, stranger] = people(b, "payer", "stranger");
    const webhookSecret = () =>
      (JSON.parse(readFileSync(join(b.dataDir, "stripe-standin.json"), "utf8")) as { webhookSecret: string })
        .webhookSecret;
    const library = new Stripe("sk_test_unused");

    const billing = (
      body: string | Uint8Array<ArrayBuffer>,
      token: string | null = person.session.access_token,
      headers = {},
    ) => hostile.send(b, BILLING, { method: "POST", headers: { ...hostile.authHeaders(b, token), ...headers }, body });
    const webhook = (body: string, signature: string | null, headers: Record<string, string> = {}) =>
      hostile.send(b, WEBHOOK, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(signature === null ? {} : { "stripe-signature": signature }),
          ...headers,
        },
        body,
      });
    /** `payload` signed with the backend's webhook secret by the library's own helper. */
    const signed = (payload: string, secret = webhookSecret(), timestamp?: number) =>
      webhook(
        payload,
        library.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) }),
      );

    const check = (family: string, probes: Probe[], allowed: Answer["cls"][]) => async () => {
      for (const [probe, run] of probes) {
        for (const answer of [await run()].flat()) {
          results.push({ database: postgres ? "PostgreSQL" : "PGlite", family, probe, answer });
          expect(hostile.BAD.has(answer.cls), `${probe}: ${answer.status} ${answer.detail}`).toBe(false);
          expect(allowed, `${probe}: ${answer.status} ${answer.detail}`).toContain(answer.cls);
          if (answer.cls === "4xx") {
            const body = JSON.parse(answer.detail || "{}");
            expect(body.error?.code ?? body.code, probe).toBeTruthy();
          }
        }
      }
    };

    it.skipIf(skip)(
      "billing answers every bad request 4xx with a code and makes no customer",
      async () => {
        const checkout = JSON.stringify({ action: "checkout", plan: "creator" });
        const probes: Probe[] = [
          ["no token", () => billing(checkout, null)],
          [
            "token of another secret",
            () => billing(checkout, hostile.mintJwt(hostile.claimsFor(person.id), "not-the-secret")),
          ],
          ["unsigned token", () => billing(checkout, hostile.mintJwt(hostile.claimsFor(person.id), null, "none"))],
          [
            "expired token",
            () => billing(checkout, hostile.mintJwt(hostile.claimsFor(person.id, "authenticated", 1), b.jwtSecret)),
          ],
          ["anon key as token", () => billing(checkout, b.anonKey)],
          ["empty body", () => billing("")],
          ["not JSON", () => billing("{action:")],
          ["an array", () => billing("[]")],
          ["null", () => billing("null")],
          ["no action", () => billing("{}")],
          ["action a number", () => billing('{"action":1}')],
          ["action an object", () => billing('{"action":{"$ne":null}}')],
          ["unknown action", () => billing('{"action":"refund"}')],
          ["checkout without plan", () => billing('{"action":"checkout"}')],
          ["checkout of a tier name", () => billing('{"action":"checkout","plan":"premium"}')],
          ["plan an array", () => billing('{"action":"checkout","plan":["pro"]}')],
          ["session id not a session", () => billing('{"action":"sync","sessionId":"../../v1/customers"}')],
          ["session id that is not theirs", () => billing('{"action":"sync","sessionId":"cs_test_nobody"}')],
          ["portal before any checkout", () => billing('{"action":"portal"}')],
          ...Object.entries(hostile.HOSTILE_TEXT).flatMap(([name, text]): Probe[] => [
            [`action ${name}`, () => billing(hostile.jsonWith({}, { action: text }))],
            [`plan ${name}`, () => billing(hostile.jsonWith({ action: "checkout" }, { plan: text }))],
            [`session id ${name}`, () => billing(hostile.jsonWith({ action: "sync" }, { sessionId: text }))],
          ]),
          ["deep array", () => billing(`{"action":"summary","x":${hostile.deepArray(20_000)}}`)],
          ["deep object", () => billing(`{"action":"summary","x":${hostile.deepObject(20_000)}}`)],
          ["7 MB body", () => billing(hostile.hugeJson(7 * 1024 * 1024, { action: "checkout", plan: "creator" }))],
          [
            "hostile.gzip body",
            () => billing(hostile.gzip(checkout), person.session.access_token, { "content-encoding": "gzip" }),
          ],
          [
            "form body",
            () =>
              billing("action=checkout&plan=creator", person.session.access_token, {
                "content-type": "application/x-www-form-urlencoded",
              }),
          ],
          ["GET", () => hostile.send(b, BILLING, { headers: hostile.authHeaders(b, person.session.access_token) })],
        ];
        await check("billing", probes, ["4xx"])();
        const { data } = await serviceClient(b).from("billing_customers").select("user_id").eq("user_id", person.id);
        expect(data).toEqual([]);
      },
      120_000,
    );

    it.skipIf(skip)(
      "a checkout returns only to the site, whatever Origin the request claims",
      async () => {
        const answer = await billing(
          JSON.stringify({ action: "checkout", plan: "creator" }),
          stranger.session.access_token,
          {
            origin: "https://evil.example",
          },
        );
        expect(answer.status).toBe(200);
        const { url } = JSON.parse(answer.detail) as { url: string };
        const page = await (await fetch(url)).text();
        expect(page).not.toContain("evil.example");
      },
      60_000,
    );

    it.skipIf(skip)(
      "stripe-webhook answers bad signatures and signed non-events 4xx, and events of no customer of ours 200",
      async () => {
        const event = (fields: Record<string, unknown>) =>
          JSON.stringify({ object: "event", type: "customer.subscription.updated", data: { object: {} }, ...fields });
        const good = event({ id: "evt_hostile_ok", data: { object: { customer: "cus_nobody" } } });
        const refused: Probe[] = [
          ["no signature", () => webhook(good, null)],
          ["empty signature", () => webhook(good, "")],
          ["garbage signature", () => webhook(good, "t=1,v1=zz")],
          ["64 KB signature", () => webhook(good, `t=${Math.floor(Date.now() / 1000)},${"v1=00,".repeat(10_000)}`)],
          ["another secret", () => signed(good, "whsec_not_ours")],
          ["ten minutes old", () => signed(good, undefined, Math.floor(Date.now() / 1000) - 600)],
          ["signed, not JSON", () => signed("{id:")],
          ["signed null", () => signed("null")],
          ["signed array", () => signed("[]")],
          ["signed event without id", () => signed(event({}))],
          ["signed id a number", () => signed(event({ id: 7 }))],
          ["signed id 10,000 characters", () => signed(event({ id: `evt_${"x".repeat(10_000)}` }))],
          ["signed type an object", () => signed(event({ id: "evt_h1", type: { $ne: null } }))],
          ...Object.entries(hostile.HOSTILE_TEXT).map(([name, text]): Probe => [
            `signed id ${name}`,
            () =>
              signed(hostile.jsonWith({ object: "event", type: "invoice.paid", data: { object: {} } }, { id: text })),
          ]),
          ["7 MB event", () => signed(hostile.hugeJson(7 * 1024 * 1024, { id: "evt_h3", type: "invoice.paid" }))],
          ["GET", () => hostile.send(b, WEBHOOK, {})],
        ];
        await check("stripe-webhook", refused, ["4xx"])();
        const recorded: Probe[] = [
          ["a customer of no one here", () => signed(good)],
          ["the same event again", () => signed(good)],
          ["customer an object", () => signed(event({ id: "evt_h4", data: { object: { customer: { $ne: null } } } }))],
          ...Object.entries(hostile.HOSTILE_TEXT).map(([name, text], i): Probe => [
            `customer ${name}`,
            () =>
              signed(
                `{"id":"evt_h5_${i}","type":"invoice.paid","data":{"object":{"customer":${JSON.stringify(text)}}}}`,
              ),
          ]),
          [
            "signed deep object",
            () => signed(`{"id":"evt_h2","type":"invoice.paid","data":${hostile.deepObject(20_000)}}`),
          ],
          ["data a string", () => signed(event({ id: "evt_h6", data: "x" }))],
        ];
        await check("stripe-webhook", recorded, ["2xx"])();
        const { data } = await serviceClient(b).from("stripe_events").select("id,outcome").eq("id", "evt_hostile_ok");
        expect(data).toEqual([{ id: "evt_hostile_ok", outcome: "unknown_customer" }]);
        const limits = (await person.client.rpc("get_my_limits")).data as { tier: string };
        expect(limits.tier).toBe("free");
      },
      120_000,
    );
  },
);
