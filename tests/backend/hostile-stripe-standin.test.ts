// The Stripe stand-in the local backend serves (decision 149), as a hostile client would call it: its API
// (/v1), its pages (/stripe) and its controls (/__stripe) with forged keys, bodies that nest too deep, are too
// big, are not what they take, and hostile text in every field. Every answer is a 4xx (Stripe's error shape
// for the API and the controls, a page for the pages), never 5xx, a hang or a dropped connection.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { useBackend } from "../support/backend-suite.ts";
import { type Answer, BAD, HOSTILE_TEXT, pctEncode, type ProbeResult, report, send } from "../support/hostile.ts";

const results: ProbeResult[] = [];
afterAll(() => {
  if (results.length) console.log(`\nStripe stand-in: hostile answers by class\n${report(results)}\n`);
});

type Probe = [string, () => Promise<Answer>];

const b = useBackend();
const secretKey = () =>
  (JSON.parse(readFileSync(join(b.dataDir, "stripe-standin.json"), "utf8")) as { secretKey: string }).secretKey;
const form = (key: string | null = secretKey()) => ({
  ...(key ? { authorization: `Bearer ${key}` } : {}),
  "content-type": "application/x-www-form-urlencoded",
});
const post = (path: string, body: string, key?: string | null) =>
  send(b, path, { method: "POST", headers: form(key), body });
const get = (path: string, key?: string | null) => send(b, path, { headers: form(key) });

async function check(family: string, probes: Probe[], stripeShape: boolean) {
  for (const [probe, run] of probes) {
    const answer = await run();
    results.push({ database: b.database, family, probe, answer });
    expect(BAD.has(answer.cls), `${probe}: ${answer.status} ${answer.detail}`).toBe(false);
    expect(answer.cls, `${probe}: ${answer.status} ${answer.detail}`).toBe("4xx");
    // The answer's start (send keeps 200 characters): Stripe's `{"error": {"type": ...` shape.
    if (stripeShape) expect(answer.detail, probe).toMatch(/^\{\s*"error":\s*\{\s*"type":\s*"[a-z_]+"/);
  }
}

it("the API refuses forged keys and hostile params with Stripe's errors", async () => {
  const probes: Probe[] = [
    ["no key", () => get("/v1/customers", null)],
    ["another key", () => get("/v1/customers", "sk_test_standin_forged")],
    ["the anon key", () => get("/v1/customers", b.anonKey)],
    ["the service key", () => get("/v1/customers", b.serviceRoleKey)],
    ["Basic garbage", () => send(b, "/v1/customers", { headers: { authorization: "Basic %%%" } })],
    ["key nested 10,000 deep", () => post("/v1/customers", `metadata${"[a]".repeat(10_000)}=1`)],
    [
      "60,000 metadata keys",
      () => post("/v1/customers", Array.from({ length: 60_000 }, (_, i) => `metadata[k${i}]=v`).join("&")),
    ],
    ["2 MB body", () => post("/v1/customers", `description=${"x".repeat(2_000_000)}`)],
    [
      "JSON body",
      () =>
        send(b, "/v1/customers", {
          method: "POST",
          headers: { ...form(), "content-type": "application/json" },
          body: '{"email":"a@example.com"}',
        }),
    ],
    ["broken percent-encoding", () => post("/v1/customers", "email=%E0%A4%A&name=%")],
    ["a hash where a string goes", () => post("/v1/customers", "email[a]=1")],
    ["a string where a hash goes", () => post("/v1/customers", "metadata=abc")],
    ["__proto__ param", () => post("/v1/customers", "__proto__[polluted]=1")],
    ["expand through __proto__", () => get("/v1/customers?expand[]=__proto__.constructor")],
    ["expand 5 levels", () => get("/v1/customers?expand[]=a.b.c.d.e")],
    ["limit 1e2", () => get("/v1/customers?limit=1e2")],
    ["limit 0", () => get("/v1/customers?limit=0")],
    ["starting_after of nothing", () => get("/v1/customers?starting_after=cus_nothing")],
    ["search that is no query", () => get(`/v1/customers/search?query=${encodeURIComponent("((((")}`)],
    ["an id with a path in it", () => get("/v1/customers/..%2F..%2Fauth%2Fv1%2Fadmin")],
    ["unknown route", () => get("/v1/charges")],
    ["bad Stripe-Version", () => send(b, "/v1/customers", { headers: { ...form(), "stripe-version": "x'; drop" } })],
    [
      "idempotency key of 10,000 characters",
      () =>
        send(b, "/v1/customers", {
          method: "POST",
          headers: { ...form(), "idempotency-key": "k".repeat(10_000) },
          body: "email=a%40example.com",
        }),
    ],
    ["checkout without line items", () => post("/v1/checkout/sessions", "mode=subscription&success_url=http://a.test")],
    [
      "checkout line_items a string",
      () => post("/v1/checkout/sessions", "mode=subscription&line_items=abc&success_url=http://a.test"),
    ],
    [
      "checkout success_url javascript:",
      () => post("/v1/checkout/sessions", "mode=subscription&success_url=javascript:alert(1)&line_items[0][price]=x"),
    ],
    ["subscription items a string", () => post("/v1/subscriptions/sub_nothing", "items=1")],
    ...Object.entries(HOSTILE_TEXT).flatMap(([name, text]): Probe[] => [
      [`email ${name}`, () => post("/v1/customers", `email=${pctEncode(text)}`)],
      [`customer id ${name}`, () => get(`/v1/customers/${pctEncode(text)}`)],
      [`portal customer ${name}`, () => post("/v1/billing_portal/sessions", `customer=${pctEncode(text)}`)],
    ]),
  ];
  await check("api", probes, true);
}, 120_000);

it("the controls need the stand-in's key and refuse bad bodies", async () => {
  const control = (path: string, body: string, key: string | null = secretKey()) =>
    send(b, path, { method: "POST", headers: key ? { authorization: `Bearer ${key}` } : {}, body });
  const probes: Probe[] = [
    ["advance without a key", () => control("/__stripe/clock/advance", '{"seconds":60}', null)],
    ["advance with the anon key", () => control("/__stripe/clock/advance", '{"seconds":60}', b.anonKey)],
    ["faults with a forged key", () => control("/__stripe/faults", '{"drop":true}', "sk_test_standin_forged")],
    ["advance not JSON", () => control("/__stripe/clock/advance", "{seconds:")],
    ["advance negative", () => control("/__stripe/clock/advance", '{"seconds":-60}')],
    ["advance 1e308", () => control("/__stripe/clock/advance", '{"seconds":1e308}')],
    ["advance a string", () => control("/__stripe/clock/advance", '{"seconds":"60"}')],
    ["faults deep array", () => control("/__stripe/faults", "[".repeat(100_000) + "]".repeat(100_000))],
    ["faults unknown", () => control("/__stripe/faults", '{"shuffle":true}')],
    ["faults delay huge", () => control("/__stripe/faults", '{"delay_ms":1e12}')],
    ["unknown control", () => control("/__stripe/reset", "{}")],
  ];
  await check("controls", probes, true);
}, 60_000);

it("the pages answer unknown ids and hostile forms with a page, never a fault", async () => {
  const page = (path: string, body?: string) =>
    send(
      b,
      path,
      body === undefined
        ? {}
        : { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } },
    );
  const probes: Probe[] = [
    ["checkout of nothing", () => page("/stripe/checkout/cs_test_nothing")],
    ["pay of nothing", () => page("/stripe/checkout/cs_test_nothing/pay", "number=4242424242424242")],
    ["portal of nothing", () => page("/stripe/portal/bps_nothing/cancel", "")],
    ["invoice of nothing", () => page("/stripe/invoice/in_nothing")],
    ["a traversal", () => page("/stripe/invoice/..%2F..%2Fetc%2Fpasswd")],
    ["an id of 10,000 characters", () => page(`/stripe/checkout/${"a".repeat(10_000)}`)],
    ["an unknown page", () => page("/stripe/admin")],
  ];
  await check("pages", probes, false);
}, 60_000);
