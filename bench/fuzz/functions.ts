// The functions grammar: generate-image bodies (fields of their kind, one broken, or anything; a
// reference image of any kind from images.ts, as a data URL that may lie about its type; JSON or a
// server-sent-events answer), delete-generation bodies naming rows the caller does not own or that do
// not exist, delete-account bodies sent by an account made for it or with a token that must fail, and
// billing and stripe-webhook bodies.
import { pctEncode as pct } from "../../tests/support/hostile.ts";
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { jsonBody, jsonValue, type Rng, text, word } from "./grammar.ts";
import { fuzzImage } from "./images.ts";
import { accountOf, BAD_TOKENS, type HttpCase, type Who, type World } from "./world.ts";

/** A version-4 uuid drawn from the stream (the same request, the same id). */
function uuid(r: Rng): string {
  const h = r.repeat(32, () => r.int(0, 15).toString(16)).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
}

function referenceImage(r: Rng): { value: unknown; name: string } {
  const image = fuzzImage(r);
  const b64 = Buffer.from(image.bytes).toString("base64");
  return r.weighted<{ value: unknown; name: string }>([
    [8, () => ({ value: `data:${image.mime};base64,${b64}`, name: image.name })],
    [
      1,
      () => ({
        value: `data:${r.pick(["image/webp", "text/html", "", "image/png;charset=utf-8"])};base64,${b64}`,
        name: `${image.name}, odd type`,
      }),
    ],
    [
      1,
      () => ({
        value: `data:${image.mime};base64,${b64.slice(0, r.int(0, b64.length))}=%=`,
        name: `${image.name}, bad base64`,
      }),
    ],
    [
      1,
      () => ({
        value: r.pick(["", "data:", "data:image/png;base64,", "https://example.test/a.png", text(r, 100)]),
        name: "not a data URL",
      }),
    ],
  ]);
}

/** A generate-image body whose fields are each valid (so it reaches the quota and the decoder). */
function validFields(r: Rng): Record<string, unknown> {
  return {
    request_id: uuid(r),
    prompt: r.pick(["a quiet harbour at dawn", "neon city", "cat", text(r, 300).trim() || "x"]),
    ...(r.chance(0.5) ? { style: r.pick(STYLE_IDS) } : {}),
    quality: "standard",
    aspect_ratio: r.pick(["1:1", "16:9", "9:16"]),
    ...(r.chance(0.3) ? { seed: r.int(0, 2 ** 31) } : {}),
    ...(r.chance(0.2) ? { negative_prompt: text(r, 100) } : {}),
  };
}

function generateImage(r: Rng, w: World, who: Who): HttpCase {
  const premium: Who = r.pick(["user0", "user1"]);
  const stream = r.chance(0.3);
  const made = r.weighted<{ body: string; label: string; who: Who }>([
    [
      4,
      () => {
        const ref = referenceImage(r);
        return {
          body: jsonBody(r, { ...validFields(r), reference_image: ref.value }),
          label: `reference: ${ref.name}`,
          who: r.chance(0.8) ? premium : who,
        };
      },
    ],
    [
      3,
      () => {
        const fields = validFields(r);
        const key = r.pick([
          ...Object.keys(fields),
          "provider",
          "timezone",
          "reference_image",
          "custom_style",
          "variation",
          word(r),
        ]);
        fields[key] = r.chance(0.5) ? jsonValue(r, 4) : text(r, 4000);
        if (key === "request_id" && r.chance(0.3)) fields[key] = r.pick(w.generations).id;
        return { body: jsonBody(r, fields), label: `field ${key.slice(0, 20)} broken`, who };
      },
    ],
    [2, () => ({ body: jsonBody(r, jsonValue(r, 5)), label: "any body", who })],
    [0.3, () => ({ body: jsonBody(r, validFields(r)), label: "valid", who: premium })],
  ]);
  return {
    kind: "http",
    surface: "functions",
    label: `generate-image ${made.label}`,
    who: made.who,
    method: "POST",
    path: "/functions/v1/generate-image",
    headers: {
      "content-type": "application/json",
      ...(stream ? { accept: "text/event-stream" } : {}),
      ...(r.chance(0.1) ? { "x-timezone": text(r, 40) } : {}),
    },
    body: made.body,
  };
}

export function functionsCase(r: Rng, w: World, who: Who): HttpCase {
  const post = (label: string, path: string, body: string, as: Who): HttpCase => ({
    kind: "http",
    surface: "functions",
    label,
    who: as,
    method: r.chance(0.95) ? "POST" : r.pick(["GET", "PUT", "OPTIONS"]),
    path,
    headers: { "content-type": "application/json" },
    body,
  });
  return r.weighted<HttpCase>([
    [6, () => generateImage(r, w, who)],
    [
      3,
      () => {
        // Rows of another account, or none: the caller's own rows stay, so the run's world does not change.
        const mine = accountOf(w, who).id;
        const other = w.generations.filter((g) => g.userId !== mine);
        const g = r.chance(0.7) && other.length ? r.pick(other) : null;
        const body = r.weighted<unknown>([
          [4, () => ({ generation_id: g?.id ?? uuid(r), image_path: g?.path ?? `${mine}/${uuid(r)}.png` })],
          [
            1,
            () => ({
              generation_id: g?.id ?? uuid(r),
              image_path: r.pick(["", "../x", `${mine}/../${g?.userId ?? "x"}/a.png`, text(r, 200)]),
            }),
          ],
          [2, () => jsonValue(r, 4)],
        ]);
        return post("delete-generation", "/functions/v1/delete-generation", jsonBody(r, body), who);
      },
    ],
    [
      1,
      () =>
        post(
          "delete-account",
          "/functions/v1/delete-account",
          jsonBody(r, r.chance(0.5) ? {} : jsonValue(r, 4)),
          r.chance(0.5) ? "fresh" : r.pick(BAD_TOKENS),
        ),
    ],
    [
      1,
      // Half of this branch goes to the billing functions (decision 148), a quarter to keep-upscale (decision
      // 158); the other branches' draws, and so every request in FOUND, stay as they were.
      () =>
        r.chance(0.5)
          ? billingCase(r, who)
          : r.chance(0.5)
            ? keepUpscaleCase(r, w, who)
            : post(
                "other function",
                `/functions/v1/${pct(r.pick(["health", "", "..", word(r), text(r, 50)]))}`,
                jsonBody(r, jsonValue(r, 3)),
                who,
              ),
    ],
  ]);
}

/**
 * billing bodies (each action with fields of their kind, one broken, or anything) and stripe-webhook
 * events (event-shaped or anything, with no, a malformed or a wrongly signed Stripe-Signature).
 */
function billingCase(r: Rng, who: Who): HttpCase {
  const base = { kind: "http" as const, surface: "functions" as const, method: "POST" };
  if (r.chance(0.6)) {
    const fields: Record<string, unknown> = {
      action: r.pick(["summary", "checkout", "portal", "sync"]),
      ...(r.chance(0.6) ? { plan: r.pick(["creator", "pro", "premium", text(r, 40)]) } : {}),
      ...(r.chance(0.3) ? { sessionId: r.pick([`cs_${word(r)}`, text(r, 300)]) } : {}),
    };
    const key = r.pick(["action", "plan", "sessionId", word(r)]);
    if (r.chance(0.5)) fields[key] = r.chance(0.5) ? jsonValue(r, 4) : text(r, 2000);
    return {
      ...base,
      label: `billing ${String(fields.action).slice(0, 12)}`,
      who,
      path: "/functions/v1/billing",
      headers: { "content-type": "application/json", ...(r.chance(0.2) ? { origin: text(r, 60) } : {}) },
      body: jsonBody(r, r.chance(0.8) ? fields : jsonValue(r, 5)),
    };
  }
  const event = r.chance(0.7)
    ? {
        id: r.pick([`evt_${word(r)}`, text(r, 300)]),
        object: "event",
        type: r.pick(["customer.subscription.updated", "invoice.paid", "checkout.session.completed", text(r, 60)]),
        data: { object: r.chance(0.7) ? { customer: r.pick([`cus_${word(r)}`, text(r, 80)]) } : jsonValue(r, 4) },
      }
    : jsonValue(r, 5);
  const t = Math.floor(Date.now() / 1000) - r.int(-100, 1000);
  const signature = r.weighted<string | null>([
    [2, () => null],
    [3, () => `t=${t},v1=${r.repeat(64, () => r.int(0, 15).toString(16)).join("")}`],
    [1, () => text(r, 300)],
  ]);
  return {
    ...base,
    label: "stripe-webhook",
    who: "anon",
    path: "/functions/v1/stripe-webhook",
    headers: { "content-type": "application/json", ...(signature === null ? {} : { "stripe-signature": signature }) },
    body: jsonBody(r, event),
  };
}

/**
 * keep-upscale forms (decision 158): multipart with an image of any kind from images.ts under a type that may
 * lie, an original of the caller's, another's or none, a scale that may be no scale, a part left out or renamed;
 * or a body of any kind. The fuzz images never measure an original times two or four, so nothing is kept.
 */
function keepUpscaleCase(r: Rng, w: World, who: Who): HttpCase {
  const image = fuzzImage(r);
  const boundary = `fuzz${r.int(0, 1e9).toString(36)}`;
  const fields: [string, string][] = [
    ["id", r.chance(0.9) ? uuid(r) : text(r, 60)],
    ["original_id", r.chance(0.8) ? r.pick(w.generations).id : r.pick([uuid(r), text(r, 60)])],
    ["scale", r.pick(["2", "4", "3", "0", text(r, 10)])],
  ];
  if (r.chance(0.2)) fields.splice(r.int(0, fields.length - 1), 1);
  if (r.chance(0.1)) fields.push([word(r), text(r, 200)]);
  const type = r.chance(0.8) ? image.mime : r.pick(["image/webp", "text/plain", "", "image/gif"]);
  const head = fields.map(
    ([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const filePart = `--${boundary}\r\ncontent-disposition: form-data; name="image"; filename="up"\r\ncontent-type: ${type}\r\n\r\n`;
  const multipart = r.chance(0.85);
  const body = multipart
    ? Buffer.concat([
        Buffer.from(head.join("") + filePart),
        Buffer.from(image.bytes),
        Buffer.from(`\r\n--${boundary}${r.chance(0.9) ? "--" : ""}\r\n`),
      ])
    : Buffer.from(jsonBody(r, jsonValue(r, 4)));
  return {
    kind: "http",
    surface: "functions",
    label: `keep-upscale ${multipart ? image.name : "any body"}`,
    who,
    method: "POST",
    path: "/functions/v1/keep-upscale",
    headers: { "content-type": multipart ? `multipart/form-data; boundary=${boundary}` : "application/json" },
    body: new Uint8Array(body),
  };
}
