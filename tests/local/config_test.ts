// The local backend's configuration: every variable parsed in one place, defaults when absent, a typo
// never becoming 0 or NaN, and the JWT secret generated once and kept.
import assert from "node:assert/strict";
import { functionsWithoutJwtOf, loadConfig } from "../../supabase/local/config.ts";
import { verifyJwt } from "../../supabase/local/jwt.ts";

async function withDataDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "pc-config-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("defaults when nothing is set, and the keys verify with the generated secret", () =>
  withDataDir(async (dir) => {
    const c = await loadConfig(envOf({ DATA_DIR: dir }));
    assert.equal(c.apiPort, 54321);
    assert.equal(c.publicUrl, "http://127.0.0.1:54321");
    assert.equal(c.siteUrl, c.publicUrl);
    assert.equal(c.functionTimeoutMs, 150_000);
    assert.equal(c.restMaxRows, 1000);
    assert.equal(c.dbPoolSize, 10);
    assert.equal(c.renderWorkers, null);
    assert.equal(c.mailerAutoconfirm, true);
    assert.equal(c.migrationsDir, "supabase/migrations");
    assert.equal(c.jwtSecret, (await Deno.readTextFile(`${dir}/jwt-secret`)).trim());
    const anon = await verifyJwt(c.anonKey, c.jwtSecret);
    assert.deepEqual(anon.ok && anon.value.role, "anon");
    const again = await loadConfig(envOf({ DATA_DIR: dir }));
    assert.equal(again.jwtSecret, c.jwtSecret, "a restart must keep the secret");
  }));

Deno.test("reads each variable, and ignores numbers that are not positive integers", () =>
  withDataDir(async (dir) => {
    const c = await loadConfig(
      envOf({
        DATA_DIR: dir,
        PORT: "55402",
        FUNCTION_TIMEOUT_MS: "2500",
        REST_MAX_ROWS: "-3",
        DB_POOL_SIZE: "many",
        RENDER_WORKERS: "3",
        MAILER_AUTOCONFIRM: "false",
        MIGRATIONS_DIR: "/tmp/migrations",
        SOME_PROVIDER_KEY: "k",
      }),
    );
    assert.equal(c.siteUrl, "http://127.0.0.1:55402");
    assert.equal(c.functionTimeoutMs, 2500);
    assert.equal(c.restMaxRows, 1000);
    assert.equal(c.dbPoolSize, 10);
    assert.equal(c.renderWorkers, 3);
    assert.equal(c.mailerAutoconfirm, false);
    assert.equal(c.migrationsDir, "/tmp/migrations");
    assert.equal(c.functionEnv("SOME_PROVIDER_KEY"), "k", "functions see the rest of the environment");
  }));

Deno.test("takes PostgREST's max rows from config.toml's [api] max_rows, REST_MAX_ROWS overriding", () =>
  withDataDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/config.toml`, "[api]\nmax_rows = 250\n\n[auth]\nmax_rows = 7\n");
    const fromFile = await loadConfig(envOf({ DATA_DIR: dir, SUPABASE_CONFIG: `${dir}/config.toml` }));
    assert.equal(fromFile.restMaxRows, 250);
    const overridden = await loadConfig(
      envOf({ DATA_DIR: dir, SUPABASE_CONFIG: `${dir}/config.toml`, REST_MAX_ROWS: "40" }),
    );
    assert.equal(overridden.restMaxRows, 40);
  }));

Deno.test("refuses a JWT secret shorter than 32 characters", () =>
  withDataDir(async (dir) => {
    await assert.rejects(loadConfig(envOf({ DATA_DIR: dir, JWT_SECRET: "short" })), /at least 32 characters/);
  }));

Deno.test("docs/configuration.md lists exactly the variables the module reads", async () => {
  const source = await Deno.readTextFile(new URL("../../supabase/local/config.ts", import.meta.url));
  const read = new Set([...source.matchAll(/env\("([A-Z_]+)"\)/g)].map((m) => m[1]));
  const docs = await Deno.readTextFile(new URL("../../docs/configuration.md", import.meta.url));
  // The table of the section "The local backend": its first column names each variable.
  const section = docs.split(/^## /m).find((s) => s.startsWith("The local backend")) ?? "";
  const listed = [...section.matchAll(/^\| `([A-Z_]+)`/gm)].map((m) => m[1]);
  assert.ok(listed.length > 0, "docs/configuration.md has no table under ## The local backend");
  assert.deepEqual([...read].sort(), [...listed].sort());
});

Deno.test("the functions config.toml marks verify_jwt = false are served without a JWT, and only those", async () => {
  const toml = [
    "[functions.health]",
    "verify_jwt = false # a probe",
    "[functions.generate-image]",
    "verify_jwt = true",
    "[functions.stripe-webhook]",
    "  verify_jwt = false",
    "[auth]",
    "verify_jwt = false",
  ].join("\n");
  assert.deepEqual(functionsWithoutJwtOf(toml), ["health", "stripe-webhook"]);
  const project = await loadConfig(envOf({ DATA_DIR: await Deno.makeTempDir({ prefix: "pc-config-" }) }));
  assert.ok(project.functionsWithoutJwt.includes("stripe-webhook"));
  assert.ok(!project.functionsWithoutJwt.includes("billing"));
});
