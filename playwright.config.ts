// End-to-end journeys in Debian's Chromium against `npm start` (the built app + the local backend),
// with a fresh data directory per run so every run starts from an empty database.
import { defineConfig } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromiumPath } from "./scripts/chromium.mjs";

const PORT = Number(process.env.E2E_PORT ?? 4173);
const API_PORT = Number(process.env.E2E_API_PORT ?? 54331);

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  workers: 1,
  fullyParallel: false,
  // CI tries a failed journey once more and `npm test` names it as flaky above its summary (a journey
  // that fails twice fails the run); locally a failure is final. See docs/decisions (CI retries).
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // The onboarding dialog opens a second after a first visit; journeys start as returning visitors.
    // Tests of the dialog itself start from an empty storage state.
    storageState: {
      cookies: [],
      origins: [
        { origin: `http://127.0.0.1:${PORT}`, localStorage: [{ name: "onboarding_completed", value: "true" }] },
      ],
    },
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    },
  },
  webServer: {
    command: "node scripts/start.mjs",
    url: `http://127.0.0.1:${PORT}/`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      API_PORT: String(API_PORT),
      DATA_DIR: mkdtempSync(join(tmpdir(), "promptcanvas-e2e-")),
      // Every spec signs people up and in from 127.0.0.1: the hosted per-IP auth limits (30 sign-ins
      // and sign-ups per 5 minutes, 2 e-mails an hour) would refuse the run part-way.
      AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: "1000000",
      AUTH_RATE_LIMIT_TOKEN_REFRESH: "1000000",
      AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: "1000000",
      AUTH_RATE_LIMIT_EMAIL_SENT: "1000000",
      AUTH_RATE_LIMIT_BURST: "1000000",
    },
  },
});
