// Finds the Deno executable installed by the `deno` npm package, without relying on its postinstall
// script (npm here does not run install scripts unless approved).
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

export function denoPath() {
  const pkgDir = dirname(require.resolve("deno/package.json"));
  const direct = join(pkgDir, process.platform === "win32" ? "deno.exe" : "deno");
  if (existsSync(direct)) return direct;
  return require(join(pkgDir, "install_api.cjs")).runInstall();
}
