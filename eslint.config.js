// ESLint gate (`npm run lint`, the `static` tier of `npm test`). Beyond correctness rules it makes the
// architecture's import rules mechanical (README.md, "Working on it"): features never import each other,
// imports flow app -> features -> {db, sync, api, ui, state, lib}, each third-party boundary library is
// imported from one layer only, and there are no barrel files. Every exception sits next to its rule
// with the reason.
import { readdirSync } from "node:fs";
import { defineConfig } from "eslint/config";
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import { importX, createNodeResolver } from "eslint-plugin-import-x";

const FEATURES = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

const LOWER_LAYERS = ["db", "sync", "api", "ui", "state", "lib"].map((l) => `./src/${l}`);
const PURE_LAYERS = ["ui", "state", "lib"].map((l) => `./src/${l}`);

const zones = [
  // Each feature is a closed capability: it may use the lower layers, never another feature.
  ...FEATURES.map((f) => ({
    target: `./src/features/${f}`,
    from: "./src/features",
    except: [`./${f}`],
    message: "Features never import each other; move the shared part to a lower layer (db, sync, api, ui, state, lib).",
  })),
  {
    target: "./src/features",
    from: "./src/app",
    message: "Imports flow app -> features: a feature never imports the composition root.",
  },
  {
    target: LOWER_LAYERS,
    from: ["./src/features", "./src/app", "./sw"],
    message: "Lower layers (db, sync, api, ui, state, lib) never import features, app or the service worker.",
  },
  {
    target: PURE_LAYERS,
    from: ["./src/db", "./src/sync", "./src/api"],
    message: "ui, state and lib hold no data access: they never import db, sync or api.",
  },
  {
    // The server code is deployed on its own; only pure modules are shared with the app: the vocabulary, and
    // the recipe an image file carries (written by the server into stored PNGs, by the app into downloads).
    target: ["./src", "./sw"],
    from: "./supabase",
    except: ["./functions/_shared/vocabulary", "./functions/_shared/recipe-metadata"],
    message:
      "The app shares only supabase/functions/_shared/vocabulary and recipe-metadata with the server (#shared/…).",
  },
];

const SUPABASE = {
  name: "@supabase/supabase-js",
  message: "Only src/api and src/sync talk to Supabase; call a function in src/api instead.",
};
const DEXIE = {
  name: "dexie",
  message: "Only src/db (and src/sync) import dexie; use a query or write function from src/db (useLiveQuery is fine).",
};
const WORKBOX = {
  group: ["workbox-*"],
  message: "Only the service worker (sw/) imports workbox; the page uses workbox-window from src/lib.",
};
const WORKBOX_BUT_WINDOW = { ...WORKBOX, group: ["workbox-*", "!workbox-window"] };

// Relative (or #src/) specifiers of src areas, checked by text: `../features/x` from src/sync,
// `../../app/x` from src/sync/queue, `../src/ui/x` from sw/.
const SRC_PREFIX = String.raw`^(?:(?:\.\./)+(?:src/)?|#src/)`;
const SW_PREFIX = String.raw`^(?:(?:\.\./)+src/|#src/)`;

/** The src areas an area may not import (`forbid`), or the only ones it may (`onlyFrom`, for sw/). */
function layerPatterns({ forbid = [], onlyFrom = null } = {}) {
  const patterns = [];
  if (forbid.length) {
    patterns.push({
      regex: `${SRC_PREFIX}(?:${forbid.join("|")})(?:/|$)`,
      message: `This layer never imports ${forbid.map((a) => `src/${a}`).join(", ")}: imports flow app -> features -> {db, sync, api, lib}.`,
    });
  }
  if (onlyFrom) {
    patterns.push({
      regex: `${SW_PREFIX}(?!(?:${onlyFrom.join("|")})/)`,
      message: `The service worker imports from src only under ${onlyFrom.map((a) => `src/${a}`).join(", ")}: what it runs (the queue, the outbox drain) lives in src/sync.`,
    });
  }
  return patterns;
}

/**
 * no-restricted-imports for one area: flat config replaces (not merges) a rule's options per block, so
 * each area's one block carries all its restrictions: named packages, package patterns and src layers.
 */
const restrict = (paths, patterns, layers) => ["error", { paths, patterns: [...patterns, ...layerPatterns(layers)] }];

export default defineConfig(
  {
    ignores: [
      "node_modules/",
      "dist/",
      // Build folders of parallel runs (DIST_DIR=dist-*).
      "dist-*/",
      "tests/.output/",
      "test-results/",
      "playwright-report/",
      ".data/",
      // Static files copied verbatim into the build (runtime config written at deploy time, icons, previews).
      "public/",
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
      // `catch {}` with a comment is how best-effort work (storage quota, optional APIs) says so.
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    files: ["**/*.{js,mjs,cjs}", "scripts/**", "bench/**", "tests/**", "*.config.ts"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ["src/**/*.{ts,tsx}", "tests/unit/**", "tests/e2e/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ["sw/**"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ["src/**/*.{ts,tsx}", "tests/unit/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    files: ["src/**/*.{ts,tsx}", "sw/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".mjs", ".json"] })],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones }],
      // A barrel hides where a thing lives and defeats code splitting; import from the owning module.
      "import-x/avoid-barrel-files": ["error", { amountOfExportsToConsiderModuleAsBarrel: 2 }],
      "import-x/avoid-re-export-all": "error",
      "no-restricted-imports": restrict([SUPABASE, DEXIE], [WORKBOX]),
    },
  },
  { files: ["src/api/**"], rules: { "no-restricted-imports": restrict([DEXIE], [WORKBOX]) } },
  // Sync runs in the page and in the service worker: it owns delivery and knows nothing of the views.
  {
    files: ["src/sync/**"],
    rules: { "no-restricted-imports": restrict([], [WORKBOX], { forbid: ["features", "app", "state", "ui"] }) },
  },
  // Exception: the image hooks (use-record-image, use-tile-image) are view glue over Dexie's cached
  // images kept beside the image sync; they use src/ui's object-URL hook. The service worker never
  // imports them (they need React), so they may reach src/ui, and nothing else above sync.
  {
    files: ["src/sync/use-*.ts"],
    rules: { "no-restricted-imports": restrict([], [WORKBOX], { forbid: ["features", "app", "state"] }) },
  },
  { files: ["src/db/**"], rules: { "no-restricted-imports": restrict([SUPABASE], [WORKBOX]) } },
  { files: ["src/lib/**"], rules: { "no-restricted-imports": restrict([SUPABASE, DEXIE], [WORKBOX_BUT_WINDOW]) } },
  {
    files: ["sw/**"],
    rules: {
      "no-restricted-imports": restrict([SUPABASE, DEXIE], [], { onlyFrom: ["sync", "db", "api", "lib"] }),
    },
  },
  // The connection state has one reader, src/lib/online.ts, so every check of it means the same. Exception:
  // the gallery's first-screen script is inlined into the page and can import nothing.
  {
    files: ["src/**/*.{ts,tsx}", "sw/**/*.ts"],
    ignores: ["src/lib/online.ts", "src/features/gallery/first-screen.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "navigator", property: "onLine", message: "Read the connection state through src/lib/online.ts." },
      ],
    },
  },
);
