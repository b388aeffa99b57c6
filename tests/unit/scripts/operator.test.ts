// @vitest-environment node
// scripts/operator.mjs without a backend: which project it acts on, the local backend's service key it
// makes from the backend's own secret (verified here as the backend verifies it), and its usage errors.
// Granting and revoking against a running backend: tests/backend/hostile-moderation.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { localServiceKey, main, projectFromEnv } from "../../../scripts/operator.mjs";
import { verifyJwt } from "../../../supabase/local/jwt.ts";

const SECRET = "a-local-secret-of-at-least-thirty-two-characters";
const dataDir = mkdtempSync(join(tmpdir(), "pc-operator-"));
writeFileSync(join(dataDir, "jwt-secret"), `${SECRET}\n`);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm run operator", () => {
  it("makes the local backend's own service-role key from its secret", async () => {
    const verified = await verifyJwt(localServiceKey(SECRET), SECRET);
    expect(verified.ok && verified.value.role).toBe("service_role");
    expect((await verifyJwt(localServiceKey("another secret of thirty-two characters"), SECRET)).ok).toBe(false);
  });

  it("acts on the local backend of npm start by default, with the key of its data directory", async () => {
    const project = projectFromEnv({ DATA_DIR: dataDir });
    expect(project.url).toBe("http://127.0.0.1:54321");
    expect((await verifyJwt(project.serviceRoleKey, SECRET)).ok).toBe(true);
    expect(projectFromEnv({ DATA_DIR: dataDir, API_PORT: "6000" }).url).toBe("http://127.0.0.1:6000");
    expect(projectFromEnv({ SUPABASE_URL: "https://x.supabase.co", SUPABASE_SERVICE_ROLE_KEY: "k" })).toEqual({
      url: "https://x.supabase.co",
      serviceRoleKey: "k",
    });
  });

  it("needs the service role key for a project other than the local backend", () => {
    expect(() => projectFromEnv({ SUPABASE_URL: "https://x.supabase.co", DATA_DIR: dataDir })).toThrow(
      /SUPABASE_SERVICE_ROLE_KEY/,
    );
    expect(() => projectFromEnv({ DATA_DIR: join(dataDir, "missing") })).toThrow(/start the backend once/);
  });

  it("answers 2 with its usage for anything but grant EMAIL, revoke EMAIL or list", async () => {
    for (const argv of [[], ["grant"], ["grant", "not-an-address"], ["promote", "a@b.c"], ["list", "a@b.c"]]) {
      const said: string[] = [];
      expect(await main(argv, { env: { DATA_DIR: dataDir }, err: (l) => said.push(l) }), argv.join(" ")).toBe(2);
      expect(said.join("\n")).toMatch(/^Usage: npm run operator -- grant EMAIL \| revoke EMAIL \| list/);
    }
  });
});
