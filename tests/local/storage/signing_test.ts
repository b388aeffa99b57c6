// Signing's input rules, below the HTTP layer: expiresIn as hosted storage-api takes it (a whole number
// of seconds, refused past hosted's own bound) and capped at a year; object names storage-api refuses.
import { deepStrictEqual } from "node:assert/strict";
import { checkObjectName } from "../../../supabase/local/storage/object-key.ts";
import { expiresInOf, MAX_EXPIRES_IN_SEC } from "../../../supabase/local/storage/signed-urls.ts";

const NOW_MS = Date.UTC(2026, 10, 24);
const expires = (expiresIn: unknown) => {
  const r = expiresInOf({ expiresIn }, NOW_MS);
  return r.ok ? r.value : r.error.code;
};

Deno.test("expiresIn is a whole number of seconds from 1, numeric strings coerced as hosted's schema does", () => {
  deepStrictEqual(expires(60), 60);
  deepStrictEqual(expires("120"), 120);
  for (const bad of [0, -1, 1.5, NaN, Infinity, "", " ", "1e3x", null, undefined, true, [60], { n: 60 }]) {
    deepStrictEqual(expires(bad), "InvalidRequest", String(bad));
  }
});

Deno.test("a long expiry is cut to a year; one hosted would refuse is refused", () => {
  deepStrictEqual(expires(MAX_EXPIRES_IN_SEC), MAX_EXPIRES_IN_SEC);
  deepStrictEqual(expires(MAX_EXPIRES_IN_SEC + 1), MAX_EXPIRES_IN_SEC);
  const hostedMax = Math.floor(Number.MAX_SAFE_INTEGER / 1000) - NOW_MS / 1000;
  deepStrictEqual(expires(hostedMax), MAX_EXPIRES_IN_SEC);
  // storage-api's signer refuses these (its schema took them): InvalidParameter, not a schema error.
  deepStrictEqual(expires(hostedMax + 1), "InvalidParameter");
  deepStrictEqual(expires(Number.MAX_SAFE_INTEGER), "InvalidParameter");
});

Deno.test("an object name with a NUL, a lone surrogate or any character storage-api refuses is an invalid key", () => {
  for (
    const bad of [
      "u/a\u0000.png",
      "u/a\ud800.png",
      "u/\udc00",
      "u/\udbff\u0041",
      "u/\ud83c\udfa8.png",
      "u/caf\u00e9.png",
      "u/100%.png",
      "u/a#b.png",
      "u/[x].png",
      "u/a\\b.png",
    ]
  ) {
    const r = checkObjectName(bad);
    deepStrictEqual(r.ok ? "accepted" : r.error.code, "InvalidKey", JSON.stringify(bad));
  }
  // Everything storage-api's isValidKey allows is taken.
  const all = checkObjectName("u/AZaz09_!.*'() &$=@;:+,?-.png");
  deepStrictEqual(all.ok, true);
});
