// `npm run bench`: every benchmark in turn; each prints its own figures. Nothing here is a gate.
// `faults` (the seeded fault harness, hours at its default 1,000 schedules) and `fuzz` (50,000 generated
// requests a database) run only when named.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { denoPath } from "../scripts/deno-path.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const only = process.argv.slice(2);
const benches = [
  ["backend", process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "bench/backend-bench.ts"]],
  ["local-render", process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "bench/local-render-bench.ts"]],
  ["hostile-decode", process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "bench/hostile-decode-bench.ts"]],
  ["engine", denoPath(), ["run", "-A", "bench/engine-bench.ts"]],
  ["generate", denoPath(), ["run", "-A", "bench/generate-bench.ts"]],
  ["nsfw", denoPath(), ["run", "-A", "bench/nsfw-bench.ts"]],
  ["render-priority", denoPath(), ["run", "-A", "bench/render-priority-bench.mjs"]],
  ["generator", process.execPath, ["bench/generator-bench.mjs"]],
  ["sends-floor", process.execPath, ["bench/sends-floor-bench.mjs"]],
  ["client-cost", process.execPath, ["bench/client-cost-bench.mjs"]],
  ["history", process.execPath, ["bench/history-bench.mjs"]],
  ["compare", process.execPath, ["bench/compare-bench.mjs"]],
  ["collections", process.execPath, ["bench/collections-bench.mjs"]],
  ["library-fill", process.execPath, ["bench/library-fill-bench.mjs"]],
  ["gallery", process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "bench/gallery-bench.ts"]],
  ["lighthouse", process.execPath, ["bench/lighthouse-bench.mjs"]],
  ["upscale", process.execPath, ["bench/upscale-bench.mjs"]],
  ["faults", process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "bench/faults.ts"]],
  ["billing-faults", process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "bench/billing-faults.ts"]],
  ["fuzz", process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "bench/fuzz.ts"]],
];
for (const [name, cmd, args] of benches) {
  if (only.length ? !only.includes(name) : ["faults", "billing-faults", "fuzz"].includes(name)) continue;
  const script = args.find((a) => a.startsWith("bench/"));
  if (script && !existsSync(join(root, script))) continue;
  console.log(`\n### ${name}`);
  spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
}
