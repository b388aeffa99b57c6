/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { VitePWA } from "vite-plugin-pwa";
import { upscaleFilesPlugin } from "./scripts/upscale-files-plugin.ts";

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    upscaleFilesPlugin(),
    VitePWA({
      // The service worker is our own TypeScript in sw/ (precache, navigation fallback, image cache,
      // background sync); the plugin only injects the precache manifest into it.
      strategies: "injectManifest",
      srcDir: "sw",
      filename: "sw.ts",
      injectRegister: false,
      registerType: "prompt",
      manifest: false,
      injectManifest: {
        globPatterns: ["**/*.{js,css,html,svg,png,webp,ico,woff2,webmanifest,json}"],
        // The upscale's worker and models are kept by the service worker when first used (sw/sw.ts).
        globIgnores: ["app-config.js", "upscale/**", "assets/upscale-worker-*.js"],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  build: { target: "es2022", sourcemap: false },
  resolve: {
    // workbox-window's package points bundlers at its ES5 build (2.3 KB gzip, with transpiled async
    // helpers); the app targets ES2022, which runs its modern build as is (1.3 KB).
    alias: [{ find: /^workbox-window$/, replacement: "workbox-window/build/workbox-window.prod.mjs" }],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["fake-indexeddb/auto", "tests/support/unit-setup.ts"],
        },
      },
      {
        test: {
          name: "db",
          include: ["tests/db/**/*.test.ts"],
          environment: "node",
          setupFiles: ["tests/support/console-guard.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "backend",
          include: ["tests/backend/**/*.test.ts"],
          environment: "node",
          setupFiles: ["tests/support/console-guard.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
