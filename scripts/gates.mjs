// The static gates: each is one command that passes or fails as a whole. `npm run typecheck`, `npm run lint`
// and `npm run knip` run some of them; the `static` tier of `npm test` (tests/run-all.mjs) runs them all and
// counts each gate as one check.
// Usage: node scripts/gates.mjs [gate ...]   (no argument: every gate)
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { denoPath } from "./deno-path.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (p) => join(root, "node_modules", p);

// Everything Deno runs. The Deno programs that live beside Node code (scripts, bench) are listed by name;
// the Node ones are type-checked by tsc through tsconfig.json. deno.json's lint.include repeats this list,
// and its fmt.include the directories (the single files beside Node code are Prettier's).
const DENO_ROOTS = [
  "supabase/functions",
  "supabase/local",
  "tests/functions",
  "tests/local",
  "tests/support/functions",
  "scripts/render-samples.ts",
  "bench/engine-bench.ts",
  "bench/generate-bench.ts",
  "bench/nsfw-bench.ts",
];

/** Finds the Deno binary, or null when it is not installed (a gate that needs it is then unavailable). */
export function findDeno() {
  try {
    const p = denoPath();
    return p && existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

/**
 * Each gate: `command()` answers [executable, args] (or a list of them, run in turn, all of which must pass), or
 * null when its tool is missing (the reason in `needs`).
 * TypeScript 7 (native) is installed under the alias `typescript-native`; the `typescript` package is 6.0,
 * kept for typescript-eslint, which needs the JavaScript compiler API (see README Decisions).
 */
export const GATES = [
  {
    name: "tsc",
    what: "TypeScript 7 over the app, service worker, tests and Node scripts (tsconfig.json)",
    command: () => [process.execPath, [bin("typescript-native/bin/tsc"), "-p", ".", "--noEmit"]],
  },
  {
    name: "deno-check",
    what: "deno check over the edge functions, the local backend and their tests",
    needs: "deno",
    command: () => {
      const deno = findDeno();
      const roots = DENO_ROOTS.filter((p) => existsSync(join(root, p)));
      return deno ? [deno, ["check", "--quiet", ...roots]] : null;
    },
  },
  {
    name: "deno-lint",
    what: "deno lint (recommended rules, deno.json) over everything Deno runs",
    needs: "deno",
    command: () => {
      const deno = findDeno();
      const roots = DENO_ROOTS.filter((p) => existsSync(join(root, p)));
      return deno ? [deno, ["lint", "--quiet", ...roots]] : null;
    },
  },
  {
    name: "deno-fmt",
    what: "deno fmt --check over the Deno directories (deno.json fmt.include; fix with deno fmt)",
    needs: "deno",
    command: () => {
      const deno = findDeno();
      return deno ? [deno, ["fmt", "--check", "--quiet"]] : null;
    },
  },
  {
    name: "eslint",
    what: "ESLint (eslint.config.js): correctness, React hooks and the import rules",
    command: () => [process.execPath, [bin("eslint/bin/eslint.js"), ".", "--max-warnings=0"]],
  },
  {
    name: "prettier",
    what: "prettier --check . (fix with npm run format); .prettierignore leaves deno fmt's directories to it",
    command: () => [process.execPath, [bin("prettier/bin/prettier.cjs"), "--check", ".", "--log-level", "warn"]],
  },
  {
    name: "knip",
    what: "Knip (knip.config.js): unused files, exports and dependencies; then with --production, where tests do not count as users",
    command: () => [
      [process.execPath, [bin("knip/bin/knip.js"), "--no-progress"]],
      [process.execPath, [bin("knip/bin/knip.js"), "--no-progress", "--production"]],
    ],
  },
];

/**
 * Runs one gate with its output shown; answers { status: "passed" | "failed" | "unavailable", seconds, note? }.
 */
export function runGate(gate) {
  const started = Date.now();
  const cmd = gate.command();
  if (!cmd) return { status: "unavailable", seconds: 0, note: `${gate.needs} is not installed` };
  let failed = false;
  for (const [exe, args] of Array.isArray(cmd[0]) ? cmd : [cmd]) {
    const r = spawnSync(exe, args, { cwd: root, stdio: "inherit", env: { ...process.env, NO_COLOR: "1" } });
    if (r.error) return { status: "failed", seconds: (Date.now() - started) / 1000, note: r.error.message };
    if (r.status !== 0) failed = true;
  }
  return { status: failed ? "failed" : "passed", seconds: (Date.now() - started) / 1000 };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const names = process.argv.slice(2);
  const unknown = names.filter((n) => !GATES.some((g) => g.name === n));
  if (unknown.length) {
    console.error(`unknown gate ${unknown.join(", ")}; gates: ${GATES.map((g) => g.name).join(", ")}`);
    process.exit(2);
  }
  let failed = false;
  for (const gate of names.length ? GATES.filter((g) => names.includes(g.name)) : GATES) {
    console.log(`--- ${gate.name}: ${gate.what}`);
    const r = runGate(gate);
    console.log(`--- ${gate.name}: ${r.status} in ${r.seconds.toFixed(1)} s${r.note ? ` (${r.note})` : ""}`);
    if (r.status !== "passed") failed = true;
  }
  process.exit(failed ? 1 : 0);
}
