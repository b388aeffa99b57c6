// Knip gate (`npm run knip`, the `static` tier of `npm test`): unused files, exports and dependencies. The gate
// runs Knip twice (scripts/gates.mjs):
// - `knip`: everything, tests included: unused files, exports and dependencies anywhere.
// - `knip --production`: only the code that ships or runs outside the tests (entries and project patterns
//   ending in "!"), so a test is not a user: an export of src/, sw/ or supabase/ that only tests import is
//   reported, and goes (with its tests).
// Entries beyond what Knip's Vite, Vitest and Playwright plugins find on their own: the prerender entry,
// scripts and benchmarks, the Deno programs (edge functions, the local backend and its render worker)
// and the Deno test files. Benchmarks and scripts are not tests: what they use counts as used.
const production = process.argv.includes("--production") || process.argv.includes("-p");

/** @type {import("knip").KnipConfig} */
export default {
  entry: [
    "src/prerender-entry.tsx!",
    "scripts/*.{mjs,ts}!",
    "bench/*.{mjs,ts}!",
    "tests/functions/**/*_test.ts",
    "tests/local/**/*_test.ts",
    // Loaded by the local functions host by path in the backend tests.
    "tests/support/functions/*/handler.ts",
    "supabase/functions/*/index.ts!",
    "supabase/local/main.ts!",
    // Started as a process (`deno run` of its URL), which Knip does not follow.
    "supabase/local/render-process.ts!",
  ],
  // Production code is listed directory by directory: a catch-all pattern without "!" beside the "!" ones
  // makes Knip 6 lose the production module graph.
  project: [
    "src/**/*.{ts,tsx,css}!",
    "sw/**/*.ts!",
    "supabase/**/*.ts!",
    "scripts/**/*.{mjs,ts}!",
    "bench/**/*.{mjs,ts}!",
    "tests/**/*.{ts,tsx,mjs}",
    "*.{ts,js}",
  ],
  // A constant or helper exported beside the code that uses it documents the module's contract; the
  // finding that matters is code nobody uses at all.
  ignoreExportsUsedInFile: true,
  ignoreDependencies: [
    // Imported by the Deno code as npm: specifiers, which Deno resolves from node_modules. Tests import
    // fast-png, jpeg-js and @jsquash/webp under Node too, so only the production run needs to be told.
    ...(production ? ["fast-png", "jpeg-js", "@jsquash/webp"] : []),
    // The prompt check and the image check (supabase/functions/_shared/moderation/), Deno's alone; nsfwjs
    // imports `buffer` and `@tensorflow/tfjs` by bare name, resolved from node_modules.
    "obscenity",
    "nsfwjs",
    "@tensorflow/tfjs",
    "@tensorflow/tfjs-backend-wasm",
    "buffer",
    "omggif",
    "@types/omggif",
    // The local backend's TOTP QR code (supabase/local/auth/qr.ts), Deno's alone.
    "qrcode",
    // Knip reads a Deno `npm:pkg@version` specifier as a package named "npm".
    "npm",
    // TypeScript 7, run by path from scripts/gates.mjs (its `tsc` bin name is taken by TypeScript 6.0).
    "typescript-native",
    // Production mode reads only the `start` script: Deno is found by path (scripts/deno-path.mjs resolves
    // the `deno` package's package.json), which Knip does not follow; the `backend` script shows it in the full run.
    ...(production ? ["deno"] : []),
  ],
  // Follow the stylesheet's `@import` and `@plugin` (Tailwind and daisyUI are loaded from src/index.css).
  compilers: {
    css: (text) =>
      [...text.matchAll(/@(?:import|plugin)\s+("[^"]+"|'[^']+')/g)].map((m) => `import ${m[1]};`).join("\n"),
  },
};
