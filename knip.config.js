// Knip gate (`npm run knip`, the `static` tier of `npm test`): unused files, exports and dependencies.
// Entries beyond what Knip's Vite, Vitest and Playwright plugins find on their own: the prerender entry,
// scripts and benchmarks, the Deno programs (edge functions, the local backend and its render worker)
// and the Deno test files.
/** @type {import("knip").KnipConfig} */
export default {
  entry: [
    "src/prerender-entry.tsx",
    "scripts/*.{mjs,ts}",
    "bench/*.{mjs,ts}",
    "tests/functions/**/*_test.ts",
    "tests/local/**/*_test.ts",
    // Loaded by the local functions host by path in the backend tests.
    "tests/support/functions/*/handler.ts",
    "supabase/functions/*/index.ts",
    "supabase/local/main.ts",
    // Started with `new Worker(new URL(...))`, which Knip does not follow.
    "supabase/local/render-worker.ts",
  ],
  project: ["**/*.{ts,tsx,js,mjs,css}"],
  // A constant or helper exported beside the code that uses it documents the module's contract; the
  // finding that matters is code nobody uses at all.
  ignoreExportsUsedInFile: true,
  ignoreDependencies: [
    // Imported by the Deno code as npm: specifiers, which Deno resolves from node_modules.
    "fast-png",
    "jpeg-js",
    "@jsquash/webp",
    "omggif",
    "@types/omggif",
    // Knip reads a Deno `npm:pkg@version` specifier as a package named "npm".
    "npm",
    // TypeScript 7, run by path from scripts/gates.mjs (its `tsc` bin name is taken by TypeScript 6.0).
    "typescript-native",
  ],
  // Follow the stylesheet's `@import` and `@plugin` (Tailwind and daisyUI are loaded from src/index.css).
  compilers: {
    css: (text) =>
      [...text.matchAll(/@(?:import|plugin)\s+("[^"]+"|'[^']+')/g)].map((m) => `import ${m[1]};`).join("\n"),
  },
};
