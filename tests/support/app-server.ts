// The app server (scripts/serve-app.mjs) over a dist folder a test file writes, started before the
// enclosing suite's tests and stopped (its folder removed) after them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createAppServer } from "../../scripts/serve-app.mjs";

type AppServerOptions = Omit<Parameters<typeof createAppServer>[0], "distDir">;

/**
 * Serves `files` (a path in the dist folder → its text) with `options`; `base`, the server's address, is
 * filled in before the tests run.
 */
export function servedApp(files: Record<string, string>, options: AppServerOptions): { base: string } {
  const app = { base: "" };
  let dist: string | undefined;
  let server: Server | undefined;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), "app-server-"));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dist, path)), { recursive: true });
      writeFileSync(join(dist, path), text);
    }
    const s = createAppServer({ distDir: dist, ...options });
    server = s;
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
    app.base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.close();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });
  return app;
}
