import { describe, expect, it } from "vitest";
import {
  ERROR_FIELD_MAX_CHARS,
  ERROR_METADATA_MAX_BYTES,
  errorMetadata,
  errorSignature,
  redact,
  truncate,
} from "#src/features/analytics/error-payload.ts";

const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

describe("errorMetadata", () => {
  it("records an uncaught error with the spec's six fields", () => {
    const error = new TypeError("x is not a function");
    error.stack = "TypeError: x is not a function\n    at run (http://app.test/assets/main.js:3:14)";
    expect(
      errorMetadata({
        type: "error",
        error,
        message: "Uncaught TypeError: x is not a function",
        source: "http://app.test/assets/main.js",
        lineno: 3,
        colno: 14,
      }),
    ).toEqual({
      type: "error",
      message: "Uncaught TypeError: x is not a function",
      source: "http://app.test/assets/main.js",
      lineno: 3,
      colno: 14,
      stack: "TypeError: x is not a function\n    at run (http://app.test/assets/main.js:3:14)",
    });
  });

  it("describes an unhandled rejection by its reason, whatever was rejected", () => {
    const fromError = errorMetadata({ type: "unhandledrejection", error: new RangeError("too far") });
    expect(fromError).toMatchObject({ type: "unhandledrejection", message: "RangeError: too far", source: null });
    expect(fromError.lineno).toBeNull();
    expect(errorMetadata({ type: "unhandledrejection", error: "plain text" }).message).toBe("plain text");
    expect(errorMetadata({ type: "unhandledrejection", error: { code: 42 } }).message).toBe('{"code":42}');
    expect(errorMetadata({ type: "unhandledrejection", error: undefined }).message).toBe("undefined");
  });

  it("records a caught render error with its component as the source", () => {
    const m = errorMetadata({ type: "render", error: new Error("bad props"), source: "at HistoryGrid" });
    expect(m).toMatchObject({ type: "render", message: "Error: bad props", source: "at HistoryGrid", colno: null });
  });

  it("never keeps tokens, keys, e-mail addresses or an address's query", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXZhbHVl";
    const m = errorMetadata({
      type: "error",
      error: null,
      message: `fetch failed: Authorization: Bearer ${jwt} for ann@example.com key sk-abcdefghijklmnop123`,
      source: "http://app.test/auth/callback?code=secret123#access_token=abc",
    });
    expect(m.message).toBe("fetch failed: Authorization: Bearer [token] for [email] key [key]");
    expect(m.source).toBe("http://app.test/auth/callback");
    expect(redact(`https://x.test/y?apikey=${jwt}&page=2`)).toBe("https://x.test/y?apikey=[redacted]&page=2");
    expect(redact(`token ${jwt}`)).toBe("token [token]");
  });

  it("cuts long fields and stays within the table's metadata limit", () => {
    const error = new Error("m".repeat(5000));
    error.stack = "\u0001".repeat(10_000); // each escapes to six bytes in JSON
    const m = errorMetadata({ type: "error", error, source: "s".repeat(1000) });
    expect(m.message.length).toBeLessThanOrEqual(ERROR_FIELD_MAX_CHARS.message);
    expect(m.source!.length).toBeLessThanOrEqual(ERROR_FIELD_MAX_CHARS.source);
    expect(m.stack!.length).toBeLessThan(ERROR_FIELD_MAX_CHARS.stack);
    expect(bytes(m)).toBeLessThanOrEqual(ERROR_METADATA_MAX_BYTES);
  });

  it("treats missing or nonsense positions as unknown", () => {
    const m = errorMetadata({ type: "error", error: new Error("x"), lineno: 0, colno: Number.NaN });
    expect([m.lineno, m.colno]).toEqual([null, null]);
  });

  it("gives the same failure the same signature", () => {
    const a = errorMetadata({ type: "error", error: new Error("x"), source: "a.js", lineno: 1 });
    const b = errorMetadata({ type: "error", error: new Error("x"), source: "a.js", lineno: 1 });
    const c = errorMetadata({ type: "error", error: new Error("x"), source: "a.js", lineno: 2 });
    expect(errorSignature(a)).toBe(errorSignature(b));
    expect(errorSignature(a)).not.toBe(errorSignature(c));
  });
});

describe("truncate", () => {
  it("never splits a surrogate pair", () => {
    const cut = truncate("ab😀😀", 4);
    expect(cut).toBe("ab…");
    expect(truncate("short", 10)).toBe("short");
  });
});
