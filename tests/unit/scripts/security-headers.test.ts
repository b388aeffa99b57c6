// @vitest-environment node
// The headers of every answer and the policy of each page (decision 128): a page's inline scripts are
// allowed by their SHA-256 and nothing else inline runs; the backend is the only other origin reached;
// no site may frame the app. The app server sends them, and the build's `_headers` says the same.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  backendSources,
  contentSecurityPolicy,
  inlineScriptHashes,
  staticHostHeaders,
} from "../../../scripts/security-headers.mjs";
import { servedApp } from "../../support/app-server.ts";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
const THEME = "document.documentElement.dataset.theme='dark'";
const GUARD = "(function(){var x=1})();";
const PAGE = `<!doctype html><html><head><script>${THEME}</script>
  <script type="application/ld+json">{"@context":"https://schema.org"}</script>
  <script defer src="/app-config.js"></script><script >${GUARD}</script>
  <script type="module" crossorigin src="/assets/index.js"></script></head><body></body></html>`;

/** One directive's sources. */
const directive = (policy: string, name: string) => new RegExp(`(?:^|; )${name} ([^;]*)`).exec(policy)?.[1] ?? null;

describe("inline scripts", () => {
  it("hashes each inline script a browser would run, and no data block or external script", () => {
    expect(inlineScriptHashes(PAGE)).toEqual([sha(THEME), sha(GUARD)]);
    expect(inlineScriptHashes(`<script type="module">${GUARD}</script><script>${GUARD}</script>`)).toEqual([
      sha(GUARD),
    ]);
    expect(inlineScriptHashes("<p>no scripts</p>")).toEqual([]);
  });
});

describe("the policy", () => {
  it("allows scripts only from the app and by hash, and no frame around the app", () => {
    const policy = contentSecurityPolicy({
      scriptHashes: [sha(THEME)],
      backend: backendSources("http://127.0.0.1:54321"),
    });
    expect(directive(policy, "script-src")).toBe(`'self' 'wasm-unsafe-eval' ${sha(THEME)}`);
    expect(directive(policy, "frame-ancestors")).toBe("'none'");
    expect(directive(policy, "object-src")).toBe("'none'");
    expect(directive(policy, "connect-src")).toBe("'self' http://127.0.0.1:54321 ws://127.0.0.1:54321");
    expect(directive(policy, "img-src")).toBe("'self' data: blob: http://127.0.0.1:54321");
    expect(directive(policy, "worker-src")).toBe("'self'");
  });

  it("names the backend's origin and its WebSocket, and nothing for a value that is not http(s)", () => {
    expect(backendSources("https://abc.supabase.co/")).toEqual(["https://abc.supabase.co", "wss://abc.supabase.co"]);
    expect(backendSources("http://localhost:54321/path?x")).toEqual(["http://localhost:54321", "ws://localhost:54321"]);
    for (const bad of [undefined, "", "javascript:alert(1)", "not a url", "ftp://x.test"]) {
      expect(backendSources(bad)).toEqual([]);
    }
  });

  it("writes the static hosts' file with the same headers, for the built-in backend or any hosted one", () => {
    const named = staticHostHeaders({ scriptHashes: [sha(THEME)], backendUrl: "https://abc.supabase.co" });
    expect(named).toMatch(/^\/\*$/m);
    expect(named).toContain("  X-Frame-Options: DENY");
    expect(named).toContain("  Strict-Transport-Security: max-age=31536000");
    expect(named).toContain("connect-src 'self' https://abc.supabase.co wss://abc.supabase.co;");
    expect(named).toContain(`script-src 'self' 'wasm-unsafe-eval' ${sha(THEME)};`);
    const any = staticHostHeaders({ scriptHashes: [], backendUrl: undefined });
    expect(any).toContain("connect-src 'self' https://*.supabase.co wss://*.supabase.co;");
  });
});

describe("the app server", () => {
  const app = servedApp(
    {
      "index.html": PAGE,
      "pricing/index.html": `<!doctype html><script>${GUARD}</script>`,
      "app.js": "export {};\n",
      _headers: "/*\n  X-Frame-Options: DENY\n",
    },
    { appConfig: { supabaseUrl: "http://127.0.0.1:54321" } },
  );

  it("gives each page a policy of exactly its own inline scripts", async () => {
    const home = (await fetch(`${app.base}/`)).headers.get("content-security-policy")!;
    const pricing = (await fetch(`${app.base}/pricing`)).headers.get("content-security-policy")!;
    expect(directive(home, "script-src")).toBe(`'self' 'wasm-unsafe-eval' ${sha(THEME)} ${sha(GUARD)}`);
    expect(directive(pricing, "script-src")).toBe(`'self' 'wasm-unsafe-eval' ${sha(GUARD)}`);
    expect(directive(home, "connect-src")).toBe("'self' http://127.0.0.1:54321 ws://127.0.0.1:54321");
  });

  it("sends the hardening headers with every answer, refusals included", async () => {
    for (const [path, init, status] of [
      ["/", {}, 200],
      ["/app.js", {}, 200],
      ["/app-config.js", {}, 200],
      ["/missing.js", {}, 404],
      ["/share-target", { method: "POST", body: "x" }, 405],
    ] as const) {
      const response = await fetch(`${app.base}${path}`, init);
      expect(response.status, path).toBe(status);
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("cross-origin-opener-policy"), path).toBe("same-origin");
      expect(directive(response.headers.get("content-security-policy") ?? "", "frame-ancestors"), path).toBe("'none'");
    }
  });

  it("never serves the static hosts' header file", async () => {
    for (const path of ["/_headers", "/_HEADERS", "/%5Fheaders", "/./_headers"]) {
      const response = await fetch(`${app.base}${path}`);
      expect(await response.text(), path).not.toContain("X-Frame-Options: DENY");
    }
  });
});
