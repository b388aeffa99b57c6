// @vitest-environment node
// The import rules of eslint.config.js, proved on planted code: the service worker reaches src only
// through sync, db, api and lib, and sync never reaches the views. Linted as if the files existed.
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const cwd = fileURLToPath(new URL("../../../", import.meta.url));
const eslint = new ESLint({ cwd });

async function restrictedImports(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

// The first lint loads every plugin and the TypeScript parser: seconds on a busy machine.
describe("layer imports", { timeout: 30_000 }, () => {
  it("refuses a service worker import of a UI feature", async () => {
    const errors = await restrictedImports(
      'import { Generator } from "../src/features/generation/components/generator";\nexport default Generator;\n',
      "sw/planted.ts",
    );
    expect(errors).toEqual([expect.stringContaining("The service worker imports from src only under")]);
  });

  it.each(["../src/app/queue-runtime", "../src/state/toasts", "../src/ui/button", "#src/features/auth/x.ts"])(
    "refuses a service worker import of %s",
    async (specifier) => {
      const errors = await restrictedImports(`import "${specifier}";\n`, "sw/planted.ts");
      expect(errors).toHaveLength(1);
    },
  );

  it("lets the service worker import sync, db, api and lib", async () => {
    const code = [
      'import { drainWithLock } from "../src/sync/push";',
      'import { db } from "../src/db/db";',
      'import { supabase } from "../src/api/client";',
      'import { ok } from "../src/lib/result";',
      "export { drainWithLock, db, supabase, ok };",
      "",
    ].join("\n");
    expect(await restrictedImports(code, "sw/planted.ts")).toEqual([]);
  });

  it("refuses a sync import of features, app, state or ui, at any depth", async () => {
    for (const [specifier, filePath] of [
      ["../features/generation/use-generation", "src/sync/planted.ts"],
      ["../../app/queue-runtime", "src/sync/queue/planted.ts"],
      ["../state/toasts", "src/sync/planted.ts"],
      ["../ui/use-object-url", "src/sync/planted.ts"],
    ]) {
      expect(await restrictedImports(`import "${specifier}";\n`, filePath), specifier).toHaveLength(1);
    }
  });

  it("lets sync import db, api, lib and itself", async () => {
    const code = 'import "../db/db";\nimport "../api/client";\nimport "../lib/result";\nimport "./push";\n';
    expect(await restrictedImports(code, "src/sync/planted.ts")).toEqual([]);
    expect(await restrictedImports('import "../run-task";\n', "src/sync/queue/planted.ts")).toEqual([]);
  });
});
