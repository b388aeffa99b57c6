// The seeded fault harness: each seed gives a schedule (schedule.ts) of person actions and faults,
// executed here over Playwright and Chromium (CDP for crashes, the service worker and Background
// Sync) against the built app and a local backend this harness owns (backend.ts), so it can SIGKILL
// and restart it. After every fault and at quiescence it checks the invariants (checkInvariants) and
// counts, from what it observes on the wire and in the stores, how often each recovery path ran.
import { chromium, type Browser, type BrowserContext, type Page, type Request, type Route } from "@playwright/test";
import { chromiumPath } from "../../scripts/chromium.mjs";
import { startServers, type Servers } from "./backend";
import {
  callAs,
  operatorToken,
  othersPublishedImages,
  readModerated,
  reportedByOthers,
  passwordToken,
  patchLimits,
  readReports,
  visibleTo,
  quotaResetAt,
  readDexie,
  readRowIds,
  readServer,
  readStoredSession,
  rewriteStoredToken,
  signUpUser,
  type DexieOutbox,
  type DexieState,
  type ServerState,
} from "./probes";
import { seededRandom } from "../support/seeded-random";
import { addSince, mark, timed, type Profile } from "./profile";
import { describeStep, isFault, makeSchedule, type ScheduleOptions, type Step } from "./schedule";

/**
 * Seeds whose violation is a known product bug awaiting its fix (the CI run skips them, saying why).
 * Each entry: the seed and the reason (file and cause; see the report that introduced it).
 */
export const KNOWN_VIOLATION_SEEDS: { seed: number; reason: string }[] = [];

/**
 * The fixed seeds CI runs (each must pass every time; the known ones are skipped with their reason): the
 * seeds that found a violation, and one that sends a report again (4551), which together exercise every
 * recovery path (2714 alone exercises all but the report's). Seeds 1 to 3,
 * which CI ran before them, run with `npm run bench faults` (decision 163).
 */
// 115: the seed whose schedule (a lost answer, then the image deleted while its retry waited) found that a
// late retry redrew and recharged a deleted generation (supabase/migrations/20261124000700_*).
// 198: a delete, then IndexedDB deleted at once, left the image with no row (the outbox sent the row's delete
// and the object's as two requests): now one server call, supabase/functions/delete-generation (decision 113).
// 228: IndexedDB deleted twice under several tabs left rows on the server only: the catch-up now fetches by
// id any row up to its cursor that the device lacks (src/sync/pull.ts reconcileGenerations).
// 2522: a check right after an offline spell read a row committed while the list of objects was being read,
// and called it a row without an image (the final check found it whole): the check now counts only rows
// seen both before and after that list.
// 2714: a session renewal whose answer a reload cut off (the server had rotated the refresh token), then
// reads refused for the lapsed token and nobody renewing until the reuse interval had passed: the server
// ended the session, and every tab went on sending with it, asking nobody to sign in. Now a refused read
// renews at once, and a session the server ended is forgotten, so the person is asked (src/api/auth.ts).
// 3468: a send cut by a deleted database (its task gone with the device's storage) was still waiting on a
// hung provider when the device was quiet, so its reservation was open at the final check. Not a leak: the
// function closed it at the provider's timeout. The final check now waits for such sends (lostSendsEnded).
// 3956: five tabs reloaded after a deleted database, on a loaded machine; the device came back signed out,
// and the harness checked quiescence without signing in again. Now the person signs in when the generator
// asks them to, and a sign-out the server did not cause is a violation (signInIfSignedOut, decision 178).
// 3978: the backend killed between a send's image and its row, then the device's database deleted: the
// task was gone, so nothing claimed the image. generate-image now removes such images once their
// reservation is 10 minutes old, and the final check counts them with the leftover reservation (decision 179).
// 4551: found nothing; the report's first answer lost, so the person sends it again and the page must call
// it done (decision 188): the one CI seed with the recovery path "report sent again".
export const CI_SEEDS: number[] = [115, 198, 228, 2522, 2714, 3468, 3956, 3978, 4551];

export const RECOVERY_PATHS = [
  "outbox replay",
  "token renewal",
  "catch-up after reconnect",
  "duplicate suppression on the server",
  "quota hold",
  "storage-loss rebuild",
  "worker drain",
  "report sent again",
] as const;
export type RecoveryPath = (typeof RECOVERY_PATHS)[number];
export type Counters = Record<RecoveryPath, number>;

export const zeroCounters = (): Counters => Object.fromEntries(RECOVERY_PATHS.map((p) => [p, 0])) as Counters;

export type Violation = { seed: number; step: number; where: string; message: string };

export type ScheduleResult = {
  seed: number;
  steps: string[];
  violations: Violation[];
  counters: Counters;
  /** Actions the page refused or that did not apply (not violations: e.g. nothing to save yet). */
  notes: string[];
  faults: Record<string, number>;
  ms: number;
  /** Where the schedule's wall time went (profile.ts). */
  profile: Profile;
  /** Each step's wall time (ms), in schedule order. */
  stepMs: number[];
  /**
   * What the schedule's browser said, by seconds since it began: each step's start, the pages' console
   * warnings and errors and uncaught errors, failed requests, and the status of every session refresh
   * and generate-image call. Printed for a schedule with a violation, where a seed's timing may not come again.
   */
  trail: string[];
};

const PASSWORD = "correct-horse-battery";
/** The trail keeps a schedule's last lines only. */
const TRAIL_LINES = 3000;
const LAUNCH_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export type Harness = {
  servers: Servers;
  browser: Browser;
  runSchedule(seed: number, opts?: RunOptions): Promise<ScheduleResult>;
  close(): Promise<void>;
};

export type HarnessOptions = { port?: number; apiPort?: number; providerPort?: number; log?: (s: string) => void };

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const servers = await startServers({
    port: opts.port ?? 4731,
    apiPort: opts.apiPort ?? 54731,
    providerPort: opts.providerPort ?? 4732,
    log: opts.log,
  });
  // The bench ends on SIGTERM or Ctrl-C after the schedules under way (bench/faults.ts): the browser must
  // not close on them first, as Playwright would by default. It is still closed when the process exits.
  const launch = () =>
    chromium.launch({
      executablePath: chromiumPath(),
      args: LAUNCH_ARGS,
      handleSIGINT: false,
      handleSIGTERM: false,
    });
  let browser = await launch();
  return {
    servers,
    get browser() {
      return browser;
    },
    async runSchedule(seed, o) {
      const started = Date.now();
      try {
        // A browser that died (the machine ran short) is started again rather than ending the run.
        if (!browser.isConnected()) browser = await launch();
        return await runSchedule(servers, browser, seed, o);
      } catch (e) {
        // The schedule could not be set up (its browser killed under it, a backend that would not start):
        // the seed is reported as aborted, like one cut short, and the run goes on with the next.
        const message = `schedule aborted before it began: ${String((e as Error).message ?? e).slice(0, 300)}`;
        return {
          seed,
          steps: makeSchedule(seed, o).map(describeStep),
          violations: [{ seed, step: 0, where: "harness", message }],
          counters: zeroCounters(),
          notes: [],
          faults: {},
          ms: Date.now() - started,
          profile: {},
          stepMs: [],
          trail: [],
        };
      }
    },
    async close() {
      await browser.close().catch(() => undefined);
      await servers.close();
    },
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Checks `holds` every `everyMs` until it is true (resolves) or `stop.done` (never resolves). */
async function poll(stop: { done: boolean }, everyMs: number, holds: () => Promise<boolean>): Promise<void> {
  while (!stop.done) {
    if (await holds().catch(() => false)) return;
    await sleep(everyMs);
  }
  await new Promise(() => undefined);
}

/** Everything one schedule knows while it runs. */
class Run {
  readonly rnd: () => number;
  readonly violations: Violation[] = [];
  readonly notes: string[] = [];
  readonly counters = zeroCounters();
  readonly faults: Record<string, number> = {};
  readonly profile: Profile = {};
  readonly stepMs: number[] = [];
  readonly trail: string[] = [];
  readonly #began = performance.now();
  context!: BrowserContext;
  pages: Page[] = [];
  email: string;
  userId = "";
  stepIndex = 0;
  /** Where the schedule stands ("setup", a step's label, "quiescence"), and the timed waits under way. */
  phase = "setup";
  readonly waiting: string[] = [];
  /** The schedule ran past its cap: its context is closed and what is left of it stops at the next check. */
  abandoned = false;
  promptNo = 0;
  signedIn = false;
  /** Quota the harness itself added to generations_today (the quota fault), not charged by the app. */
  quotaOffset = 0;
  /** Tasks refused for the day's quota so far (by the server, or on the device), counted once each. */
  quotaHeldSeen = 0;
  /** The backend was killed during this schedule (a send cut there may leave its reservation). */
  backendKilled = false;
  /** Every generation id the server has ever shown for this user, and those since deleted by the person. */
  everOnServer = new Set<string>();
  deletedIds = new Set<string>();
  /** Task ids the device held; those lost with the deleted database are excused. */
  knownTasks = new Set<string>();
  lostWithStorage = new Set<string>();
  /**
   * What the person asked of their collections (decision 157): each image in a collection
   * (`collection:generation`) put in (true) or taken out (false) by a collect step, the last word kept. A
   * database deleted on the device takes unsent asks with it, so they are forgotten then.
   */
  collected = new Map<string, boolean>();
  /**
   * What the person asked of their custom styles (decision 152): each style's last name given by a style
   * step, or null once deleted. Forgotten, as collected is, with a database deleted on the device.
   */
  styled = new Map<string, string | null>();
  styleNo = 0;
  /** Another person's published images, which report steps report (decision 188). */
  othersImages: string[] = [];
  /**
   * The other person's image two more people reported in setup (decision 194): the person's report makes the
   * third, which holds it out of the gallery for everyone until an operator reviews it.
   */
  twiceReported: string | null = null;
  /** An operator's access token, in schedules where an operator acts (decision 194), and their own random stream. */
  operator = "";
  readonly operatorRnd: () => number;
  /** Images the page told the person were reported ("Reported", or "No longer in the gallery"). */
  reportedSeen = new Set<string>();
  /** Task ids seen failed on the device (a shown failure; signing out may clear it with the device's data). */
  failedSeen = new Set<string>();
  /**
   * Task ids the server refused for good (performance.now() of the answer), and when the person last signed
   * out by choice: a task refused before that sign-out failed on the page, and the sign-out cleared it with
   * the device's data, even when no read of the device saw it failed in between.
   */
  refusedAt = new Map<string, number>();
  signedOutAt = Number.NEGATIVE_INFINITY;
  /** Wire evidence for the recovery counters. */
  restMutations = new Map<string, number>();
  refreshes = 0;
  /**
   * What the server last said when it ended this person's session (a refused renewal or check) since the
   * last sign-in through the UI, or "".
   */
  sessionEndedByServer = "";
  lastDexie: DexieState | null = null;
  offline = false;
  private routes: { url: string; handler: (route: Route) => Promise<void> }[] = [];

  constructor(
    readonly servers: Servers,
    readonly browser: Browser,
    readonly seed: number,
  ) {
    this.rnd = seededRandom(seed ^ 0x5eed);
    this.operatorRnd = seededRandom(seed ^ 0x30d3);
    this.email = `fault-${seed}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}@example.com`;
  }

  /** Times `work` in this schedule's profile. */
  async time<T>(name: string, work: () => Promise<T>): Promise<T> {
    this.waiting.push(name);
    try {
      return await timed(this.profile, name, work);
    } finally {
      this.waiting.splice(this.waiting.indexOf(name), 1);
    }
  }

  /** A fixed pause, timed under its name (one whose length is part of the schedule: a fault's duration). */
  pause(name: string, ms: number): Promise<void> {
    return this.time(`pause: ${name}`, () => sleep(ms));
  }

  /**
   * Waits until `event` resolves, or at most `capMs`: the fixed pause the wait replaced, so a wait never
   * lasts longer than it did, and ends as soon as what it stood for has happened. An event that fails
   * (a page closed under it) waits the whole cap, as the old pause did. `stop.done` turns true when the
   * wait is over, for events that poll. Timed as `until: name`, or `until: name (cap)` when the cap ended it.
   */
  async until(name: string, capMs: number, event: (stop: { done: boolean }) => Promise<unknown>): Promise<boolean> {
    const stop = { done: false };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = mark();
    const waitName = `until: ${name}`;
    this.waiting.push(waitName);
    const came = await Promise.race([
      event(stop).then(
        () => true,
        () => new Promise<boolean>(() => undefined),
      ),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), capMs))),
    ]);
    stop.done = true;
    clearTimeout(timer);
    this.waiting.splice(this.waiting.indexOf(waitName), 1);
    addSince(this.profile, `until: ${name}${came ? "" : " (cap)"}`, start);
    return came;
  }

  violation(where: string, message: string) {
    // A schedule cut at its cap says so once; what its closed context then breaks says nothing more.
    if (this.abandoned) return;
    this.violations.push({ seed: this.seed, step: this.stepIndex, where, message });
  }

  get page(): Page {
    const open = this.pages.filter((p) => !p.isClosed());
    this.pages = open;
    if (!open.length) throw new Error("no page open");
    return open[Math.floor(this.rnd() * open.length)];
  }

  /**
   * The tab the person acts in next (one of the open tabs, at random), brought to the front as a person's
   * tab is: Chromium draws a tab behind another only now and then, so a click there waited seconds for
   * the button to be seen still.
   */
  async personsTab(): Promise<Page> {
    const page = this.page;
    await page.bringToFront().catch(() => undefined);
    return page;
  }

  get mainPage(): Page | null {
    this.pages = this.pages.filter((p) => !p.isClosed());
    return this.pages[0] ?? null;
  }

  /** Opens a tab at `path` (null: a blank tab, for a caller that navigates it itself). */
  async newPage(path: string | null = "/generate"): Promise<Page> {
    return this.time("open a tab", async () => {
      const page = await this.context.newPage();
      this.watch(page);
      this.pages.push(page);
      if (path !== null) await page.goto(path, { waitUntil: "domcontentloaded" }).catch(() => undefined);
      return page;
    });
  }

  watch(page: Page) {
    page.on("dialog", (d) => void d.dismiss().catch(() => undefined));
  }

  /** Adds a line to the trail (ScheduleResult.trail), the oldest going once it is long. */
  note(line: string) {
    if (this.trail.length >= TRAIL_LINES) this.trail.shift();
    this.trail.push(`${((performance.now() - this.#began) / 1000).toFixed(2)}s ${line.slice(0, 300)}`);
  }

  observe(context: BrowserContext) {
    const where = (url: string | undefined) => (url ? new URL(url).pathname : "?");
    context.on("console", (m) => {
      // A failed load is in the trail as its request's status already.
      if (m.text().startsWith("Failed to load resource")) return;
      if (m.type() === "error" || m.type() === "warning")
        this.note(`console.${m.type()} ${where(m.page()?.url())}: ${m.text()}`);
    });
    context.on("weberror", (e) => this.note(`page error ${where(e.page()?.url())}: ${e.error().message}`));
    context.on("requestfailed", (req) => {
      const u = new URL(req.url());
      if (u.port !== new URL(this.servers.appUrl).port)
        this.note(`failed ${req.method()} ${u.pathname}: ${req.failure()?.errorText}`);
    });
    context.on("request", (req: Request) => this.onRequest(req));
    context.on("response", (res) => {
      const url = res.url();
      if (url.includes("/functions/v1/generate-image") && res.request().method() === "POST") {
        void res
          .json()
          .then((body: { replayed?: boolean; error?: { code?: string; retryable?: boolean } }) => {
            if (body?.replayed) this.counters["duplicate suppression on the server"] += 1;
            // A final refusal (the prompt check, a bad input): its task fails on the device, and no row comes.
            const id = requestIdOf(res.request());
            if (id && body?.error?.retryable === false && body.error.code !== "auth_required") {
              this.refusedAt.set(id, performance.now());
            }
            if (body?.error?.code === "daily_limit") {
              this.quotaHeldSeen += 1;
              this.counters["quota hold"] += 1;
            }
          })
          .catch(() => undefined);
      }
      if (url.includes("/auth/v1/token") && url.includes("refresh_token") && res.status() === 200) {
        this.counters["token renewal"] += 1;
      }
      if (url.includes("/auth/v1/") && (res.status() === 400 || res.status() === 403)) {
        void res
          .json()
          .then((body: { code?: unknown; error_code?: unknown }) => {
            // GoTrue names the error in error_code (code is then the status) or, in older answers, in code.
            const code = [body?.error_code, body?.code].map(String).find((c) => SESSION_ENDED_CODES.has(c));
            if (code) this.sessionEndedByServer = `${new URL(url).pathname} ${code}`;
          })
          .catch(() => {
            // A body the browser no longer holds (the worker's, a page closed meanwhile): a refused renewal
            // is still the server ending the session, whatever it said.
            if (url.includes("refresh_token") && res.status() === 400) {
              this.sessionEndedByServer = `${new URL(url).pathname} 400 (its body could not be read)`;
            }
          });
      }
      if (url.includes("/auth/v1/token") || url.includes("/functions/v1/generate-image")) {
        const from = res.request().serviceWorker() ? "worker" : where(res.frame()?.page()?.url());
        const line = `${res.request().method()} ${new URL(url).pathname}${new URL(url).search} ${res.status()} (${from})`;
        if (!url.includes("/auth/v1/token")) this.note(line);
        else {
          // A refresh token's rotations, by each token's last characters, and why one was refused.
          const tail = (t: unknown) => (typeof t === "string" ? `…${t.slice(-6)}` : "?");
          const sent = (() => {
            try {
              return tail((JSON.parse(res.request().postData() ?? "{}") as { refresh_token?: unknown }).refresh_token);
            } catch {
              return "?";
            }
          })();
          void res
            .text()
            .then((body) => {
              const got =
                res.status() === 200
                  ? tail((JSON.parse(body) as { refresh_token?: unknown }).refresh_token)
                  : body.slice(0, 160);
              this.note(`${line} ${sent} → ${got}`);
            })
            .catch(() => this.note(`${line} ${sent}`));
        }
      }
    });
  }

  onRequest(req: Request) {
    const url = req.url();
    const method = req.method();
    if (
      (url.includes("/rest/v1/") && ["PATCH", "DELETE", "POST"].includes(method) && !url.includes("/rpc/")) ||
      (url.includes("/functions/v1/delete-generation") && method === "POST") ||
      (url.includes("/functions/v1/publish-generation") && method === "POST")
    ) {
      const key = `${method} ${url} ${req.postData() ?? ""}`;
      const seen = this.restMutations.get(key) ?? 0;
      if (seen > 0) this.counters["outbox replay"] += 1;
      this.restMutations.set(key, seen + 1);
    }
  }

  async route(url: string, handle: (route: Route) => Promise<void>) {
    // A route whose page closed (a crash, a tab closed) cannot be answered any more: not an error here.
    const handler = (route: Route) => handle(route).catch(() => undefined);
    this.routes.push({ url, handler });
    await this.context.route(url, handler);
  }

  async unrouteAll() {
    for (const r of this.routes.splice(0)) await this.context.unroute(r.url, r.handler).catch(() => undefined);
  }

  async setOffline(offline: boolean) {
    this.offline = offline;
    await this.context.setOffline(offline);
  }

  nextPrompt(): string {
    this.promptNo += 1;
    return `fault seed ${this.seed} prompt ${this.promptNo}`;
  }
}

/** The task id a generate-image request carries (its `request_id`), or "". */
function requestIdOf(req: Request): string {
  try {
    return (JSON.parse(req.postData() ?? "{}") as { request_id?: string }).request_id ?? "";
  } catch {
    return ""; // not JSON
  }
}

// ---- Person actions --------------------------------------------------------------------------------

/** What the auth server answers for a session it has ended (src/api/auth.ts forgets the session on these). */
const SESSION_ENDED_CODES = new Set([
  "refresh_token_already_used",
  "refresh_token_not_found",
  "session_not_found",
  "session_expired",
]);

/**
 * At quiescence the person looks at the generator. A device the person did not sign out may have been
 * signed out by the server: a renewal whose answer a reload lost, presented again after the reuse interval,
 * ends the session (decisions 067 and 120), and the app then asks its person to sign in. They do, as the
 * app asks. A device signed out while the server refused nothing is a violation.
 */
async function signInIfSignedOut(run: Run, page: Page): Promise<void> {
  // The prerendered page carries "Sign in" until it is live (hidden when a session is stored, decision 181),
  // so what settles it is the account control drawn from the stored session.
  const menu = page.getByRole("button", { name: `Account menu for ${run.email}` });
  const shown = await run.time("quiescence: who is signed in", () =>
    menu.waitFor({ timeout: 10_000 }).then(
      () => true,
      () => false,
    ),
  );
  if (shown || (await readStoredSession(page).catch(() => undefined)) !== null) return;
  if (!run.sessionEndedByServer) {
    run.violation("quiescence", "the device was signed out, and neither the person nor the server ended its session");
  }
  run.notes.push(`signed out by the server (${run.sessionEndedByServer || "no refusal seen"}): signed in again`);
  run.note(`quiescence: signed out (${run.sessionEndedByServer || "no refusal seen"}), signing in again`);
  await signIn(run, page).catch((e) => run.notes.push(`sign-in after the session ended: ${e}`));
  await openGenerator(page).catch(() => undefined);
}

async function signIn(run: Run, page: Page): Promise<void> {
  await run.time("sign-in through the UI", () => signInSteps(run, page));
}

async function signInSteps(run: Run, page: Page): Promise<void> {
  await openPath(page, "/auth");
  await page.getByLabel("Email").fill(run.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("button", { name: `Account menu for ${run.email}` }).waitFor({ timeout: 15_000 });
  run.signedIn = true;
  // A refusal before this sign-in ended the session it replaced: it no longer explains a sign-out.
  run.sessionEndedByServer = "";
}

/**
 * A renderer that crashed may have held the service worker too (a tab that never loaded another page stays in
 * the process it started the worker in). Chromium starts the worker again at the next request a page under it
 * makes; until then Playwright's calls for the whole context (a route, going offline) wait on the worker that is
 * gone. The tab still open makes one request, as the app's next one would, and waits for the worker to answer.
 */
async function wakeWorker(run: Run, page: Page): Promise<void> {
  await run.time("crash: the worker running again", () =>
    page
      .evaluate(() =>
        fetch("/robots.txt", { cache: "no-store" }).then(
          () => true,
          () => false,
        ),
      )
      .catch(() => false),
  );
}

/**
 * Opens `path` in the tab as a person following a link in the app does: the app's router moves there without
 * loading the page again (page loads were most of a schedule's CPU, decision 192). A tab with no app in it (a
 * blank tab, an error page), or with a dialog open over the page (its links out of reach, as for a person),
 * loads the page. Reloads stay where a fault asks for one.
 */
async function openPath(page: Page, path: string): Promise<void> {
  const routed = await page
    .evaluate((to) => {
      if (!(Symbol.for("wouter_v3") in window) || document.querySelector("dialog[open]")) return false;
      history.pushState(null, "", to);
      return true;
    }, path)
    .catch(() => false);
  if (!routed) await page.goto(path, { waitUntil: "domcontentloaded" });
}

async function openGenerator(page: Page): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith("/generate")) await openPath(page, "/generate");
  await page.getByLabel("Prompt", { exact: true }).waitFor({ timeout: 15_000 });
}

/** Fills the form and presses Generate (count > 1: batch mode). Returns once the task is in Dexie. */
async function generate(run: Run, page: Page, count = 1): Promise<void> {
  await openGenerator(page);
  const before = (await readDexie(page)).tasks.length;
  const batch = page.getByLabel("Batch mode");
  if (count > 1) {
    await batch.check({ timeout: 5000 });
    await page.getByLabel("Batch count").fill(String(count), { timeout: 5000 });
  } else if (await batch.isChecked().catch(() => false)) {
    await batch.uncheck({ timeout: 5000 });
  }
  await page.getByLabel("Prompt", { exact: true }).fill(run.nextPrompt());
  const button = page.getByRole("button", { name: /^(Generate|Queue)/ });
  await button.click({ timeout: 5000 });
  await run.time("generate: task into Dexie", async () => {
    for (let i = 0; i < 40; i++) {
      const state = await readDexie(page);
      if (state.tasks.length >= before + count) break;
      await sleep(100);
    }
  });
}

async function openHistoryItem(run: Run, page: Page) {
  return run.time("open a history item", () => openHistoryItemSteps(run, page));
}

async function openHistoryItemSteps(run: Run, page: Page) {
  const state = await readDexie(page);
  const mine = state.generations.filter((g) => g.userId === run.userId);
  if (!mine.length) return null;
  const tiles = page.getByRole("list", { name: "Your generations" }).getByRole("button", { name: /^Open: / });
  await run.time("history: the page's first tile", async () => {
    await openPath(page, "/history");
    await tiles.first().waitFor({ timeout: 10_000 });
  });
  const n = await tiles.count();
  await tiles.nth(Math.floor(run.rnd() * n)).click({ timeout: 5000 });
  const dialog = page.getByRole("dialog", { name: "Generation" });
  await dialog.waitFor({ timeout: 5000 });
  return dialog;
}

/** Opens an item and flips its flag; returns when it clicked (performance.now()), or null if nothing to flip. */
async function toggleFlag(run: Run, page: Page, flag: "save" | "publish"): Promise<number | null> {
  const dialog = await openHistoryItem(run, page);
  if (!dialog) {
    run.notes.push(`${flag}: nothing to ${flag} yet`);
    return null;
  }
  const name = flag === "save" ? /^(Save|Unsave)$/ : /^(Publish|Unpublish)$/;
  const button = dialog.getByRole("button", { name }).first();
  const pressed = await run.time(`${flag}: the button pressed`, async () => {
    const was = await button.getAttribute("aria-pressed", { timeout: 5000 });
    await button.click({ timeout: 5000 });
    return was;
  });
  const clickedAt = performance.now();
  // Was a fixed 200 ms: the time for the click to take effect before the dialog closes. It took effect
  // when the button shows the flag flipped (the dialog reads the record live from the device's database).
  await run.until("flag flipped on the device", 200, (stop) =>
    poll(stop, 20, async () => (await button.getAttribute("aria-pressed", { timeout: 200 })) !== pressed),
  );
  await page.keyboard.press("Escape");
  return clickedAt;
}

async function deleteOne(run: Run, page: Page): Promise<void> {
  const dialog = await openHistoryItem(run, page);
  if (!dialog) return void run.notes.push("delete: nothing to delete yet");
  const before = new Set((await readDexie(page)).generations.map((g) => g.id));
  await dialog.getByRole("button", { name: "Delete", exact: true }).click({ timeout: 5000 });
  await dialog.getByRole("button", { name: "Delete for good" }).click({ timeout: 5000 });
  const goneStart = mark();
  for (let i = 0; i < 30; i++) {
    const after = new Set((await readDexie(page)).generations.map((g) => g.id));
    const gone = [...before].filter((id) => !after.has(id));
    if (gone.length) {
      for (const id of gone) run.deletedIds.add(id);
      addSince(run.profile, "delete: row leaves the device", goneStart);
      return;
    }
    await sleep(100);
  }
  run.notes.push("delete: no row left the device");
}

/**
 * Puts an image into a collection or takes it out (decision 157): opens an item, "Add to collection", and
 * ticks or clears one of the person's collections, or (when there is none, and now and then) makes a new one
 * with the image in it. Done when the device's items change.
 */
async function collect(run: Run, page: Page): Promise<void> {
  const dialog = await openHistoryItem(run, page);
  if (!dialog) return void run.notes.push("collect: nothing to collect yet");
  await dialog.getByRole("button", { name: "Add to collection" }).click({ timeout: 5000 });
  const picker = page.getByRole("dialog", { name: "Add to collection" });
  await picker.waitFor({ timeout: 5000 });
  const itemsOf = async () =>
    new Set(
      (await readDexie(page)).collectionItems
        .filter((i) => i.userId === run.userId)
        .map((i) => `${i.collectionId}:${i.generationId}`),
    );
  const held = await itemsOf();
  const boxes = picker.getByRole("checkbox");
  const count = await boxes.count();
  if (count === 0 || run.rnd() < 0.2) {
    await picker.getByLabel("New collection…").fill(`Harness ${count + 1}`);
    await picker.getByRole("button", { name: "Create and add" }).click({ timeout: 5000 });
  } else {
    await boxes.nth(Math.floor(run.rnd() * count)).click({ timeout: 5000 });
  }
  let now = held;
  const changed = await run.until("collection change on the device", 2000, (stop) =>
    poll(stop, 25, async () => (now = await itemsOf()).size !== held.size),
  );
  if (!changed) run.notes.push("collect: the device's collections did not change within 2 s");
  for (const key of now) if (!held.has(key)) run.collected.set(key, true);
  for (const key of held) if (!now.has(key)) run.collected.set(key, false);
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
}

/**
 * Makes, renames or deletes one of the person's custom styles (decision 152) in the generator's "Your
 * styles": a new one when there is none (and now and then), otherwise Edit on one of them, then a new name
 * or Delete (asked twice). Done when the device's styles change.
 */
async function changeStyle(run: Run, page: Page): Promise<void> {
  try {
    await changeStyleSteps(run, page);
  } finally {
    // An editor a failed click left open would stand over every later step's clicks.
    if (
      await page
        .getByRole("dialog")
        .count()
        .catch(() => 0)
    )
      await page.keyboard.press("Escape").catch(() => {});
  }
}

async function changeStyleSteps(run: Run, page: Page): Promise<void> {
  await openGenerator(page);
  const picker = page.getByRole("group", { name: "Your styles" });
  const newStyle = picker.getByRole("button", { name: "New style" });
  const offered = await newStyle.waitFor({ timeout: 10_000 }).then(
    () => true,
    () => false,
  );
  if (!offered) return void run.notes.push("style: the picker offers no New style");
  const stylesOf = async () =>
    new Map(
      (await readDexie(page)).customStyles.filter((c) => c.userId === run.userId).map((c) => [c.id, c.name] as const),
    );
  const held = await stylesOf();
  const name = `Harness style ${++run.styleNo}`;
  if (!held.size || run.rnd() < 0.3) {
    await newStyle.click({ timeout: 10_000 });
    const editor = page.getByRole("dialog", { name: "New style" });
    await editor.getByLabel("Name").fill(name);
    await editor.getByLabel("Words added to the prompt").fill("soft rim light, muted palette");
    await editor.getByRole("button", { name: "Save style" }).click({ timeout: 10_000 });
  } else {
    const [id, was] = [...held][Math.floor(run.rnd() * held.size)];
    await picker.getByRole("button", { name: `Edit ${was}`, exact: true }).click({ timeout: 10_000 });
    const editor = page.getByRole("dialog", { name: `Edit “${was}”` });
    if (run.rnd() < 0.35) {
      await editor.getByRole("button", { name: "Delete style" }).click({ timeout: 10_000 });
      await editor.getByRole("button", { name: "Delete it for good" }).click({ timeout: 10_000 });
    } else {
      await editor.getByLabel("Name").fill(name);
      await editor.getByRole("button", { name: "Save style" }).click({ timeout: 10_000 });
    }
    run.note(`style: ${id} was ${was}`);
  }
  const same = (a: Map<string, string>, b: Map<string, string>) =>
    a.size === b.size && [...a].every(([id, n]) => b.get(id) === n);
  let now = held;
  const changed = await run.until("style change on the device", 2000, (stop) =>
    poll(stop, 25, async () => !same((now = await stylesOf()), held)),
  );
  if (!changed) run.notes.push("style: the device's styles did not change within 2 s");
  for (const [id, n] of now) if (held.get(id) !== n) run.styled.set(id, n);
  for (const id of held.keys()) if (!now.has(id)) run.styled.set(id, null);
}

/**
 * Reports one of another person's published images from its page (decision 188): a reason, "Send report",
 * then the page's word. Reporting is not queued: offline, or when the answer is lost, the dialog says it
 * could not be sent and the person sends it again. In about a third of reports the harness loses the
 * answer of the first send (the server records it; the page hears nothing), so the second send meets a
 * report already there and must still read as done.
 */
async function report(run: Run, page: Page): Promise<void> {
  if (!run.othersImages.length) return void run.notes.push("report: no image of another person's");
  const id = run.othersImages[Math.floor(run.rnd() * run.othersImages.length)];
  const open = page.getByRole("button", { name: "Report", exact: true });
  const notFound = page.getByRole("heading", { name: "Page not found" });
  // An image this person reported before is not found for them: the page says so at once, so that is
  // waited for beside the button (waiting out the button's 10 s was most of a schedule's reports).
  const shown = await run.time("report: the image's page", async () => {
    await openPath(page, `/gallery/${id}`);
    return Promise.any([
      open.waitFor({ timeout: 10_000 }).then(() => "button" as const),
      notFound.waitFor({ timeout: 10_000 }).then(() => "not found" as const),
    ]).catch(() => "nothing" as const);
  });
  if (shown !== "button") {
    const why = shown === "not found" ? "not found (reported before)" : "shows no Report button";
    return void run.notes.push(`report: ${id} ${why}`);
  }
  if (run.rnd() < 0.35) await loseNextAnswer(run, "**/rest/v1/rpc/report_generation");
  // A notice may lie over the button (the quota's, a lost connection's): the person closes it first.
  await dismissNotices(page);
  await open.click({ timeout: 5000 });
  const dialog = page.getByRole("dialog", { name: "Report this image" });
  const reasons = dialog.getByRole("radio");
  await reasons.first().waitFor({ timeout: 5000 });
  await reasons.nth(Math.floor(run.rnd() * (await reasons.count()))).check({ timeout: 5000 });
  const send = dialog.getByRole("button", { name: "Send report" });
  const done = page.getByRole("region", { name: "Notices" }).getByText(/^(Reported|No longer in the gallery)$/);
  const problem = dialog.getByRole("alert");
  for (let attempt = 1; attempt <= 2; attempt++) {
    await send.click({ timeout: 5000 });
    // A second send first clears the first one's problem: wait for that, so the old words are not read as new.
    if (attempt > 1) await problem.waitFor({ state: "hidden", timeout: 2000 }).catch(() => undefined);
    const told = await run.until("report: the page's word", 10_000, () =>
      Promise.race([done.first().waitFor({ timeout: 10_000 }), problem.waitFor({ timeout: 10_000 })]),
    );
    if (told && (await done.count()) > 0) {
      run.reportedSeen.add(id);
      if (attempt > 1) run.counters["report sent again"] += 1;
      break;
    }
    const said = await problem.textContent({ timeout: 1000 }).catch(() => null);
    run.notes.push(`report: ${id} try ${attempt}: ${said ?? "no word within 10 s"}`);
  }
  await run.unrouteAll();
  if (await dialog.isVisible().catch(() => false)) await page.keyboard.press("Escape");
}

/**
 * An operator acts on the person's images from elsewhere (decision 194): takes one of their published images
 * out of the gallery with a reason, or, now and then when one was taken out, puts it back. The person's
 * devices hear of it as of any change made elsewhere: at quiescence they agree with the server, the removal
 * included, and whatever the person asked meanwhile (a publish the server now refuses) ends shown, not
 * retried for ever.
 */
async function moderate(run: Run): Promise<void> {
  const s = run.servers;
  const rows = await readModerated(s, run.userId).catch(() => null);
  if (!rows) return void run.notes.push("moderate: the server could not be read");
  const removed = rows.filter((r) => r.removed_at);
  const published = rows.filter((r) => r.is_public);
  const restore = removed.length > 0 && (!published.length || run.operatorRnd() < 0.35);
  const pool = restore ? removed : published;
  if (!pool.length) return void run.notes.push("moderate: nothing of the person's in the gallery");
  const id = pool[Math.floor(run.operatorRnd() * pool.length)].id;
  const action = restore ? "restore" : "unpublish";
  const answer = await callAs(s, run.operator, "moderate_generation", {
    p_generation_id: id,
    p_action: action,
    p_reason: restore ? null : "Breaks the gallery's rules",
  }).catch((e: unknown) => ({ status: 0, body: { message: String(e) } }));
  // The person may have deleted it since it was read: the operator then meets nothing, as they would.
  if (answer.status === 404) return void run.notes.push(`moderate: ${action} ${id}: deleted meanwhile`);
  if (answer.status !== 200) {
    return run.violation("moderate", `${action} ${id}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
  }
  run.notes.push(`moderate: ${action} ${id}`);
}

/** Closes the notices shown, as a person clears one lying over the button they want. */
async function dismissNotices(page: Page): Promise<void> {
  const close = page.getByRole("region", { name: "Notices" }).getByRole("button", { name: "Dismiss notice" });
  for (let left = await close.count(); left > 0; left--) {
    await close
      .first()
      .click({ timeout: 1000 })
      .catch(() => undefined);
  }
}

/**
 * Lets the next write (POST, PATCH or DELETE) to `url` reach the server and commit, and loses its answer
 * on the way back; later requests pass as with no route. Resolves once routed, with a promise of that loss.
 */
async function loseNextAnswer(run: Run, url: string): Promise<{ lost: Promise<void> }> {
  let lost = false;
  let answerLost = () => undefined as void;
  const lostOnce = new Promise<void>((r) => (answerLost = r));
  await run.route(url, async (route) => {
    const request = route.request();
    if (lost || !["POST", "PATCH", "DELETE"].includes(request.method())) return route.continue();
    lost = true;
    run.note(`answer lost: ${request.method()} ${new URL(request.url()).pathname}`);
    await route.fetch().catch(() => undefined);
    await route.abort("connectionreset").finally(answerLost);
  });
  return { lost: lostOnce };
}

const STYLE_CHOICES = ["photorealistic", "anime", "digital-art", "oil-painting", "watercolor"];
async function changePreference(run: Run, page: Page): Promise<void> {
  await openPath(page, "/account");
  const form = page.getByRole("region", { name: "Preferences" });
  const style = form.getByLabel("Default style");
  await style.waitFor({ timeout: 10_000 });
  const options = await style.locator("option").evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
  const choices = options.length ? options : STYLE_CHOICES;
  const chosenStyle = choices[Math.floor(run.rnd() * choices.length)];
  const chosenQuality = ["standard", "high", "ultra"][Math.floor(run.rnd() * 3)];
  await style.selectOption(chosenStyle);
  await form.getByLabel("Default quality").selectOption(chosenQuality);
  await form.getByRole("button", { name: "Save preferences" }).click({ timeout: 5000 });
  // Was a fixed 300 ms: the time for the save to land. It landed when the device's database holds both
  // choices (the save writes the record and its outbox entry in one transaction).
  await run.until("preferences on the device", 300, (stop) =>
    poll(stop, 25, async () => {
      const prefs = (await readDexie(page)).preferences.find((p) => p.userId === run.userId);
      return prefs?.defaultStyle === chosenStyle && prefs?.defaultQuality === chosenQuality;
    }),
  );
}

async function signOutIn(run: Run, page: Page): Promise<void> {
  await openPath(page, "/generate");
  await page.getByRole("button", { name: `Account menu for ${run.email}` }).click({ timeout: 10_000 });
  await page.getByRole("menuitem", { name: "Sign out" }).click({ timeout: 5000 });
  // A warning means work exists only on this device: the person keeps it (Cancel) and stays signed in.
  const warn = page.getByRole("button", { name: "Cancel" });
  const signInLink = page.getByRole("link", { name: "Sign in", exact: true });
  await run
    .time("sign out: warning or link", () =>
      Promise.race([warn.waitFor({ timeout: 5000 }), signInLink.waitFor({ timeout: 5000 })]),
    )
    .catch(() => undefined);
  if (await warn.isVisible().catch(() => false)) {
    await warn.click();
    run.notes.push("sign out: unsent work, kept it");
    return;
  }
  run.signedIn = false;
  run.signedOutAt = performance.now();
  await run.pause("signed out 200-700 ms", 200 + Math.floor(run.rnd() * 500));
  await signIn(run, page);
}

// ---- Faults ------------------------------------------------------------------------------------------

/**
 * Starts a generation in `page` and resolves once a generate-image request is on the wire from any tab of
 * the context (null if none left in 8 s). The queue sends from the tab that holds its lock, which is often
 * not the tab where the person clicked: the answer names the tab that sent (null for the service worker).
 */
async function generateAndCatchSend(run: Run, page: Page): Promise<{ from: Page | null } | null> {
  const sent = run.context
    .waitForEvent("request", {
      predicate: (r) => r.url().includes("/functions/v1/generate-image") && r.method() === "POST",
      timeout: 8000,
    })
    .catch(() => null);
  await generate(run, page);
  const request = await run.time("send on the wire", () => sent);
  if (!request) return null;
  let from: Page | null = null;
  try {
    from = request.frame().page();
  } catch {
    // A request of the service worker has no frame.
  }
  return { from };
}

async function ensurePage(run: Run): Promise<Page> {
  const main = run.mainPage;
  if (main) return main;
  return run.newPage("/generate");
}

async function serviceWorkerIds(context: BrowserContext, host: Page, origin: string) {
  const cdp = await context.newCDPSession(host);
  const ids = await new Promise<{ registrationId: string; versionIds: string[] }>((resolve, reject) => {
    const versions: string[] = [];
    let registrationId = "";
    const timer = setTimeout(
      () => (registrationId ? resolve({ registrationId, versionIds: versions }) : reject(new Error("no worker"))),
      3000,
    );
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const found = registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(origin));
      if (found) registrationId = found.registrationId;
    });
    cdp.on("ServiceWorker.workerVersionUpdated", ({ versions: vs }) => {
      for (const v of vs)
        if (v.scriptURL.startsWith(origin) && !versions.includes(v.versionId)) versions.push(v.versionId);
      if (registrationId && versions.length) {
        clearTimeout(timer);
        setTimeout(() => resolve({ registrationId, versionIds: versions }), 200);
      }
    });
    void cdp.send("ServiceWorker.enable");
  });
  return { cdp, ...ids };
}

async function runFault(run: Run, step: Step): Promise<void> {
  const s = run.servers;
  switch (step.kind) {
    case "offlineFlap": {
      await run.setOffline(true);
      if (step.generateWhileOffline)
        await generate(run, await run.personsTab()).catch((e) => run.notes.push(`offline gen: ${e}`));
      await run.pause("offline flap (planned)", step.ms);
      await run.setOffline(false);
      await waitForCatchUp(run);
      return;
    }
    case "tabCloseMidSend":
    case "crashMidSend": {
      const sent = await generateAndCatchSend(run, await run.personsTab());
      if (!sent) return void run.notes.push(`${step.kind}: no send seen`);
      // The tab whose send is on the wire is the one crashed or closed, wherever the click was.
      const page = sent.from;
      if (!page) return void run.notes.push(`${step.kind}: the service worker sent`);
      if (step.kind === "crashMidSend") {
        const cdp = await run.context.newCDPSession(page);
        const crashed = page.waitForEvent("crash", { timeout: 300 });
        void cdp.send("Page.crash").catch(() => undefined);
        // Was a fixed 300 ms: the time for the renderer to die before the tab is closed. Playwright's
        // "crash" event says it has.
        await run.until("renderer crashed", 300, () => crashed);
      }
      await page.close().catch(() => undefined);
      if (!run.mainPage) await run.newPage("/generate");
      else if (step.kind === "crashMidSend") await wakeWorker(run, run.mainPage);
      return;
    }
    case "extraTabs": {
      const open = run.pages.filter((p) => !p.isClosed()).length;
      for (let i = open; i < Math.min(5, open + step.count); i++) await run.newPage(i % 2 ? "/history" : "/generate");
      return;
    }
    case "workerSync": {
      // Work queued while offline, every page of the app closed, the worker stopped; then the browser's
      // Background Sync wakes the worker with no page open.
      const page = await run.personsTab();
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => true)).catch(() => false);
      await run.setOffline(true);
      await generate(run, page);
      const queued = (await readDexie(page)).tasks.filter((t) => t.userId === run.userId && t.status === "queued");
      const host = await run.context.newPage();
      for (const p of run.pages) await p.close().catch(() => undefined);
      run.pages = [];
      // The server's rows before the browser is back online: its own Background Sync may wake the worker
      // at once on reconnecting, before DevTools stops it. A queued task's row that appears from here on
      // was sent by the worker (every page closed while offline); read later, it was not counted.
      const before = new Set(await readRowIds(s, run.userId).catch(() => [] as string[]));
      await run.setOffline(false);
      try {
        const origin = s.appUrl;
        const { cdp, registrationId, versionIds } = await run.time("workerSync: find worker", () =>
          serviceWorkerIds(run.context, host, origin),
        );
        for (const versionId of versionIds)
          await cdp.send("ServiceWorker.stopWorker", { versionId }).catch(() => undefined);
        // Kept a fixed 200 ms. Ended on DevTools' "stopped" status instead (about 20 ms), the sync dispatched
        // at once took Chromium's browser process down twice in 40 schedules run in lanes; with the pause,
        // none was seen.
        await run.pause("worker stop 200 ms", 200);
        await cdp.send("ServiceWorker.dispatchSyncEvent", {
          origin,
          registrationId,
          tag: "promptcanvas-queue",
          lastChance: false,
        });
        const ids = queued.map((t) => t.id);
        // A stopped worker starts cold, reads the session from IndexedDB and waits for the queue's lock:
        // on a busy machine that takes seconds, so it is given as long as the e2e journey gives it.
        await run.time("workerSync: rows on the server", async () => {
          for (let i = 0; i < 90 && ids.length; i++) {
            const rows = await readRowIds(s, run.userId);
            if (ids.every((id) => rows.includes(id))) break;
            await sleep(500);
          }
        });
        const after = (await readServer(s, run.userId)).rows.filter((r) => !before.has(r.id));
        // The worker's drain waits for retries that end within its time (src/sync/queue/queue-runner.ts):
        // with no page open nothing else sends them. A task still missing whose retry came before the
        // wait above ended was left behind (read from a static page of the origin: no app code runs).
        const missing = ids.filter((id) => !after.some((r) => r.id === id));
        if (missing.length) {
          const reader = await run.context.newPage();
          await reader.goto(`${origin}/robots.txt`).catch(() => undefined);
          const tasks = (await readDexie(reader).catch(() => null))?.tasks ?? [];
          await reader.close().catch(() => undefined);
          const now = Date.now();
          const stranded = tasks.filter(
            (t) =>
              missing.includes(t.id) &&
              t.status === "queued" &&
              (!t.wait ||
                t.wait.reason === "offline" ||
                (t.wait.reason === "backoff" && Date.parse(t.wait.until ?? "") < now - 2_000)),
          );
          if (stranded.length)
            run.violation(
              "worker drain",
              `${stranded.length} queued task(s) due before the worker's drain ended were not sent: ${JSON.stringify(stranded[0].wait ?? null)}`,
            );
        }
        if (after.some((r) => ids.includes(r.id))) run.counters["worker drain"] += 1;
        else run.notes.push("workerSync: the worker sent nothing with no page open");
        await cdp.detach().catch(() => undefined);
      } catch (e) {
        run.notes.push(`workerSync: ${String(e).slice(0, 120)}`);
      }
      await host.close().catch(() => undefined);
      await run.newPage("/generate");
      return;
    }
    case "backendKill": {
      if (step.midSend) await generateAndCatchSend(run, await run.personsTab()).catch(() => null);
      run.backendKilled = true;
      await run.time("backend kill", () => s.killBackend());
      await run.pause("backend down (planned)", step.downMs);
      await run.time("backend start", () => s.startBackend());
      await waitForCatchUp(run);
      return;
    }
    case "tokenExpired": {
      // Tasks wait offline while the access token lapses; the page comes back with the stale token.
      const page = await run.personsTab();
      await run.setOffline(true);
      await generate(run, page).catch((e) => run.notes.push(`token gen: ${e}`));
      const done = await rewriteStoredToken(page, s.jwtSecret, (l) => run.note(l));
      if (!done) run.notes.push("tokenExpired: no stored session");
      for (const p of run.pages)
        if (!p.isClosed()) await p.reload({ waitUntil: "domcontentloaded" }).catch(() => undefined);
      await run.setOffline(false);
      return;
    }
    case "refreshRefused": {
      let refused = 0;
      let bothRefused = () => undefined as void;
      const refusedTwice = new Promise<void>((r) => (bothRefused = r));
      await run.route("**/auth/v1/token?grant_type=refresh_token*", async (route) => {
        if (refused < 2) {
          refused += 1;
          await route.fulfill({ status: 503, contentType: "application/json", body: '{"message":"unavailable"}' });
          if (refused === 2) bothRefused();
        } else await route.continue();
      });
      const page = await run.personsTab();
      const done = await rewriteStoredToken(page, s.jwtSecret, (l) => run.note(l));
      if (!done) run.notes.push("refreshRefused: no stored session");
      await page.reload({ waitUntil: "domcontentloaded" }).catch(() => undefined);
      await generate(run, page).catch((e) => run.notes.push(`refresh gen: ${e}`));
      // Was a fixed 1500 ms with the refusing route in place. Once it has refused twice it only passes
      // requests on, as no route does, so the wait ends there.
      await run.until("two refreshes refused", 1500, () => refusedTwice);
      await run.unrouteAll();
      return;
    }
    case "lostResponse": {
      // The request reaches the server and commits; its answer never reaches the client.
      const url = step.target === "generate" ? "**/functions/v1/generate-image" : "**/rest/v1/generations?*";
      const { lost: lostOnce } = await loseNextAnswer(run, url);
      const page = await run.personsTab();
      // The route stays until one answer is lost, or for as long as it used to: 1000 ms after the task
      // was stored, or 1200 ms after the flag's click (the toggle's 200 ms pause, then 1000 ms). Once one
      // answer is lost the route only passes requests on, as no route does, so the wait ends there.
      let capMs = 1000;
      if (step.target === "generate") await generate(run, page);
      else {
        const clickedAt = await toggleFlag(run, page, run.rnd() < 0.5 ? "save" : "publish");
        if (clickedAt !== null) capMs = Math.max(0, clickedAt + 1200 - performance.now());
      }
      const lost = await run.until("an answer lost", capMs, () => lostOnce);
      await run.unrouteAll();
      if (!lost) run.notes.push(`lostResponse(${step.target}): nothing was sent`);
      return;
    }
    case "idbDeleted": {
      const page = run.page;
      const before = await readDexie(page);
      run.collected.clear();
      run.styled.clear();
      for (const t of before.tasks) {
        if (t.status === "queued" || t.status === "running") run.lostWithStorage.add(t.id);
      }
      await page.evaluate(
        () =>
          new Promise<void>((resolve) => {
            const req = indexedDB.deleteDatabase("promptcanvas");
            req.onsuccess = () => resolve();
            req.onerror = () => resolve();
            req.onblocked = () => setTimeout(resolve, 2000);
          }),
      );
      // The person notices and reloads; the device rebuilds from the server.
      for (const p of run.pages)
        if (!p.isClosed()) await p.reload({ waitUntil: "domcontentloaded" }).catch(() => undefined);
      const rows = (await readServer(s, run.userId)).rows.map((r) => r.id).sort();
      const rebuilt = await run.time("idbDeleted: rebuild", async () => {
        for (let i = 0; i < 50; i++) {
          const mine = (await readDexie(page)).generations.filter((g) => g.userId === run.userId).map((g) => g.id);
          if (rows.every((id) => mine.includes(id))) return true;
          await sleep(200);
        }
        return false;
      });
      if (rebuilt) {
        run.counters["storage-loss rebuild"] += 1;
        return;
      }
      run.notes.push("idbDeleted: rebuild not complete after 10 s");
      return;
    }
    case "quotaZeroBatch": {
      await settle(run, 15_000, "settle before quota");
      const server = await readServer(s, run.userId);
      const target = server.dailyLimit - 1;
      run.quotaOffset += target - server.generationsToday;
      await patchLimits(s, run.userId, { generations_today: target });
      await generate(run, await run.personsTab(), step.count);
      await settle(run, 15_000, "settle after quota");
      // The quota held past its end: refused by the server (counted as its answers are seen) or, once the
      // device knew the day was spent, refused on the device without a send. Each such task counts once.
      const held = (await readDexie(run.page).catch(() => null))?.tasks.filter(
        (t) => t.userId === run.userId && t.status === "error" && t.error?.code === "daily_limit",
      );
      run.counters["quota hold"] += Math.max(0, (held?.length ?? 0) - run.quotaHeldSeen);
      run.quotaHeldSeen = Math.max(run.quotaHeldSeen, held?.length ?? 0);
      const after = await readServer(s, run.userId);
      // Give back the day's quota (the harness's own adjustment), so the rest of the schedule can generate.
      const back = run.quotaOffset;
      await patchLimits(s, run.userId, { generations_today: after.generationsToday - back });
      run.quotaOffset -= back;
      return;
    }
    case "provider": {
      s.providerPlan.splice(0, s.providerPlan.length, ...step.modes);
      const seen = () => Object.values(s.providerSeen).reduce((a, b) => a + b, 0);
      const before = seen();
      await generate(run, await run.personsTab());
      // Was a fixed 500 ms: the time for the generation to reach the provider, which answers with the
      // planned fault. The provider counts what it answered.
      await run.until("the provider answered", 500, (stop) => poll(stop, 20, async () => seen() > before));
      return;
    }
    default:
      return;
  }
}

async function runAction(run: Run, step: Step): Promise<void> {
  if (step.kind === "moderate") return moderate(run);
  const page = await run.personsTab();
  if (!run.signedIn && step.kind !== "signOutIn") await signIn(run, page);
  if (step.kind === "generate") return generate(run, page);
  if (step.kind === "batch") return generate(run, page, step.count);
  if (step.kind === "save" || step.kind === "publish") return void (await toggleFlag(run, page, step.kind));
  if (step.kind in PAGE_ACTIONS) return PAGE_ACTIONS[step.kind as keyof typeof PAGE_ACTIONS](run, page);
}

/** The actions that need nothing but the person's page. */
const PAGE_ACTIONS = {
  delete: deleteOne,
  preference: changePreference,
  signOutIn,
  collect,
  style: changeStyle,
  report,
} satisfies Partial<Record<Step["kind"], (run: Run, page: Page) => Promise<void>>>;

/** After a reconnect (or a backend restart): counts a catch-up when the device pulled rows again. */
async function waitForCatchUp(run: Run): Promise<void> {
  const page = run.mainPage;
  if (!page) return;
  const pulled = page
    .waitForRequest((r) => r.url().includes("/rest/v1/generations") && r.method() === "GET", { timeout: 4000 })
    .then(() => true)
    .catch(() => false);
  const start = mark();
  const hit = await pulled;
  addSince(run.profile, hit ? "catch-up: GET seen" : "catch-up: none (4 s timeout)", start);
  if (hit) run.counters["catch-up after reconnect"] += 1;
}

// ---- Quiescence and invariants --------------------------------------------------------------------------

function noteTasks(run: Run, d: DexieState): void {
  for (const t of d.tasks) {
    if (t.userId !== run.userId) continue;
    run.knownTasks.add(t.id);
    if (t.status === "error") run.failedSeen.add(t.id);
  }
}

/**
 * What is still in flight on the device, or null. A wait for a session is not in flight until the person
 * has signed in again (`authAnswered`): from then on the queue must lift it, so it counts as busy.
 */
function busy(run: Run, d: DexieState, authAnswered = false): string | null {
  const mine = d.tasks.filter((t) => t.userId === run.userId);
  const running = mine.filter((t) => t.status === "running");
  if (running.length) return `${running.length} running`;
  const queued = mine.filter(
    (t) => t.status === "queued" && t.wait?.reason !== "quota" && (authAnswered || t.wait?.reason !== "auth"),
  );
  if (queued.length) return `${queued.length} queued (${queued.map((t) => t.wait?.reason ?? "none").join(",")})`;
  const pending = d.outbox.filter((o) => o.userId === run.userId && o.status === "pending");
  if (pending.length) return `${pending.length} outbox pending`;
  return null;
}

/** Waits until nothing of this user's is in flight on the device; returns what was still busy, if anything. */
async function settle(run: Run, timeoutMs: number, name: string): Promise<string | null> {
  return run.time(name, () => settleSteps(run, timeoutMs));
}

async function settleSteps(run: Run, timeoutMs: number): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  let why: string | null = "not read";
  let authTried = false;
  while (Date.now() < deadline) {
    const page = await ensurePage(run);
    const d = await readDexie(page).catch(() => null);
    if (d) {
      run.lastDexie = d;
      noteTasks(run, d);
      why = busy(run, d, authTried);
      const authWait = d.tasks.some(
        (t) => t.userId === run.userId && t.status === "queued" && t.wait?.reason === "auth",
      );
      if (authWait && !authTried) {
        // The page asked the person to sign in again: they do.
        authTried = true;
        const signedIn = await page
          .getByRole("button", { name: `Account menu for ${run.email}` })
          .isVisible()
          .catch(() => false);
        if (!signedIn) await signIn(run, page).catch(() => undefined);
        else await page.reload({ waitUntil: "domcontentloaded" }).catch(() => undefined);
        continue;
      }
      if (!why) return null;
    }
    // Read every 100 ms (was 250): the same deadline, noticed sooner.
    await sleep(100);
  }
  return why;
}

/**
 * Waits (at most `timeoutMs`) while the server holds a reservation for a task that went with the device's
 * storage (idbDeleted). The device no longer knows of that send, so the device's quiescence says nothing of
 * it: its function runs on to its end (the provider's timeout, 2.5 s here, at the most) and closes its
 * reservation then. One still open after the wait is a leak, which the final invariants report.
 */
async function lostSendsEnded(run: Run, timeoutMs: number): Promise<void> {
  if (!run.lostWithStorage.size || !run.servers.backendAlive()) return;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = (await readServer(run.servers, run.userId).catch(() => null))?.reservationIds ?? [];
    if (!open.some((id) => run.lostWithStorage.has(id))) return;
    await sleep(200);
  }
}

const flags = (saved: boolean | number, pub: boolean | number, removed: unknown) =>
  `${saved ? "S" : "-"}${pub ? "P" : "-"}${removed ? "R" : "-"}`;

/** An IANA zone whose local time is about noon at `now` (Etc/GMT-k is UTC+k). */
function noonZone(now: number): string {
  const k = 12 - new Date(now).getUTCHours();
  return k === 0 ? "Etc/UTC" : `Etc/GMT${k > 0 ? "-" : "+"}${Math.abs(k)}`;
}

/**
 * The invariants. `final` adds what holds only at quiescence (convergence of device and server, the
 * outbox, every task accounted for); the others hold at any moment.
 */
/**
 * What the person asked of their collections and custom styles that the server does not hold at quiescence,
 * or "": an image put in is there unless the image is gone since (its items go with it), one taken out is not
 * there; a style has the last name given it, a deleted one is not there.
 */
function unmetAsks(run: Run, server: ServerState): string {
  const rows = new Set(server.rows.map((r) => r.id));
  const items = new Set(server.collectionItems);
  const unmet = [...run.collected].filter(([key, wanted]) =>
    wanted ? !items.has(key) && rows.has(key.split(":")[1]) : items.has(key),
  );
  const styles = new Set(server.customStyles);
  const serverStyleIds = new Set(server.customStyles.map((c) => c.slice(0, c.indexOf(":"))));
  const unmetStyles = [...run.styled].filter(([id, name]) =>
    name === null ? serverStyleIds.has(id) : !styles.has(`${id}:${name}`),
  );
  if (unmetStyles.length) {
    const [id, name] = unmetStyles[0];
    return `${unmetStyles.length} style asks not on the server: ${id} ${name === null ? "deleted" : `named ${name}`}`;
  }
  if (!unmet.length) return "";
  const [key, wanted] = unmet[0];
  return `${unmet.length} collection asks not on the server: ${key} ${wanted ? "put in" : "taken out"}`;
}

/** An outbox entry as a violation shows it: what, its state, its tries, and what it waits for. */
function outboxState(o: DexieOutbox): string {
  const next = o.nextAttemptAt
    ? `, next try in ${Math.round((Date.parse(o.nextAttemptAt) - Date.now()) / 1000)} s`
    : "";
  return `${o.kind} ${o.status}, ${o.attempts} tries${next}${o.parkedReason ? `, waits for ${o.parkedReason}` : ""}`;
}

/**
 * The person's collections and their items (decision 157) and custom styles (decision 152) where device and
 * server differ, or "".
 */
function libraryListsDiff(d: DexieState, server: ServerState, userId: string): string {
  const mine = <T extends { userId: string }>(rows: T[]) => rows.filter((r) => r.userId === userId);
  const differ = (what: string, dev: string[], srv: string[]) => {
    const onlyDev = dev.filter((x) => !srv.includes(x));
    const onlySrv = srv.filter((x) => !dev.includes(x));
    return onlyDev.length || onlySrv.length
      ? ` ${what} device-only ${JSON.stringify(onlyDev.slice(0, 3))} server-only ${JSON.stringify(onlySrv.slice(0, 3))}`
      : "";
  };
  return (
    differ(
      "collections",
      mine(d.collections).map((c) => `${c.id}:${c.name}`),
      server.collections,
    ) +
    differ(
      "collection items",
      mine(d.collectionItems).map((i) => `${i.collectionId}:${i.generationId}`),
      server.collectionItems,
    ) +
    differ(
      "custom styles",
      mine(d.customStyles).map((c) => `${c.id}:${c.name}`),
      server.customStyles,
    )
  );
}

/**
 * At quiescence, the reports (decision 188): every report the page said was sent is on the server, and
 * what the server holds is what the person's gallery reads leave out, on any device: read with a token of
 * their own, the images they reported are gone and the other person's others are still there.
 */
async function checkReports(run: Run): Promise<void> {
  const s = run.servers;
  if (!s.backendAlive()) return;
  const onServer = new Set(await readReports(s, run.userId));
  const missing = [...run.reportedSeen].filter((id) => !onServer.has(id));
  if (missing.length) {
    run.violation("reports", `${missing.length} reports the page said were sent are not on the server: ${missing[0]}`);
  }
  const visible = new Set(await visibleTo(s, await passwordToken(s, run.email, PASSWORD), run.othersImages));
  const wrong = run.othersImages.filter((id) => onServer.has(id) === visible.has(id));
  if (wrong.length) {
    const id = wrong[0];
    run.violation(
      "reports",
      `${id} is ${onServer.has(id) ? "reported but still in" : "not reported but missing from"} the person's gallery reads`,
    );
  }
  // The third report holds an image for everyone (decision 194): a visitor's gallery read leaves out the
  // image two others reported once the person's report is in, and shows the other one.
  const forVisitors = new Set(await visibleTo(s, s.anonKey, run.othersImages));
  const held = run.othersImages.filter((id) => id === run.twiceReported && onServer.has(id));
  const wrongForVisitors = run.othersImages.find((id) => held.includes(id) === forVisitors.has(id));
  if (wrongForVisitors) {
    const why = held.includes(wrongForVisitors) ? "has three reports yet is in" : "is held out of";
    run.violation("reports", `${wrongForVisitors} ${why} a visitor's gallery reads`);
  }
  run.note(
    `reports: ${onServer.size} on the server, ${run.reportedSeen.size} confirmed by the page, ${held.length} held`,
  );
}

async function checkInvariants(run: Run, where: string, final: boolean): Promise<void> {
  await run.time(final ? "invariants (final)" : "invariants (after a fault)", () =>
    checkInvariantsSteps(run, where, final),
  );
}

async function checkInvariantsSteps(run: Run, where: string, final: boolean): Promise<void> {
  const s = run.servers;
  if (!s.backendAlive()) return;
  // The server is read in three requests that are not one snapshot: a generation may commit (row and
  // charge together) between them. So the rows are read before and after the charges: every row seen
  // before must be charged, and every charge must have a row seen by the read after.
  let server: ServerState;
  let madeBefore: number;
  let madeAfter: number;
  let rowsBefore: Set<string>;
  let rowsAfter: Set<string>;
  try {
    rowsBefore = new Set(await readRowIds(s, run.userId));
    for (const id of rowsBefore) run.everOnServer.add(id);
    for (const id of run.deletedIds) run.everOnServer.add(id);
    madeBefore = run.everOnServer.size;
    server = await readServer(s, run.userId);
    for (const r of server.rows) run.everOnServer.add(r.id);
    rowsAfter = new Set(await readRowIds(s, run.userId));
    for (const id of rowsAfter) run.everOnServer.add(id);
    for (const id of run.deletedIds) run.everOnServer.add(id);
    madeAfter = run.everOnServer.size;
  } catch (e) {
    // fetch says only "fetch failed": the cause, and what the backend said last, tell why.
    const cause = (e as { cause?: unknown })?.cause;
    const why = `${String(e).slice(0, 200)}${cause ? ` (${String(cause).slice(0, 200)})` : ""}`;
    await new Promise((r) => setTimeout(r, 500)); // an exit already under way is then seen
    const alive = s.backendAlive() ? "running" : "gone";
    run.violation(
      where,
      `cannot read the server: ${why}; the backend is ${alive}; its last lines:\n${s.backendTail()}`,
    );
    return;
  }
  const charges = server.generationsToday - run.quotaOffset;
  const inFlight = server.reservations;
  // One charge per task id that made a row (rows deleted later stay charged): never more, never fewer.
  if (final ? charges !== madeBefore || madeBefore !== madeAfter : charges < madeBefore || charges > madeAfter) {
    const made = madeBefore === madeAfter ? `${madeAfter}` : `${madeBefore}–${madeAfter}`;
    run.violation(where, `quota charges ${charges} for ${made} generations (reservations open: ${inFlight})`);
  }
  // No row without its image. The object is stored before the row is written and removed after the
  // row is deleted, so a row seen both before and after the list of objects was read had its object
  // all that time; a row written or deleted meanwhile (the objects and the rows are read at once, not
  // as one snapshot) proves nothing either way. At quiescence nothing moves and every row counts.
  const objects = new Set(server.objects);
  const rowPaths = new Set(server.rows.map((r) => r.image_path));
  const missing = server.rows.filter((r) => !objects.has(r.image_path) && rowsBefore.has(r.id) && rowsAfter.has(r.id));
  if (missing.length) run.violation(where, `${missing.length} rows without an image: ${missing[0].id}`);
  // An image an operator took out of the gallery stays out until an operator puts it back (decision 194).
  const back = server.rows.find((r) => r.removed_at && r.is_public);
  if (back) run.violation(where, `${back.id} was taken out of the gallery by an operator yet is public`);
  if (!final) return;

  if (inFlight) {
    // A send the backend was killed in leaves its reservation (no process is left to release it); it is
    // never charged, stops counting against the day after 10 minutes, and its task, if re-sent, takes it
    // up. Such leftovers are noted. Any other open reservation, or one whose generation exists, is wrong.
    const withRow = server.reservationIds.filter((id) => run.everOnServer.has(id));
    if (run.backendKilled && !withRow.length) {
      run.notes.push(`${inFlight} reservation(s) left by a send cut by the backend kill (expire unused)`);
    } else {
      run.violation(where, `${inFlight} quota reservations still open at quiescence (${withRow.length} with a row)`);
    }
  }
  // The same cut can fall between the image stored and its row: the image stays beside its reservation
  // until its task sends again, or, when the task is gone with the device's storage, until generate-image
  // removes it once the reservation is 10 minutes old (take_stale_reservations, decision 179).
  const leftByKill = (o: string) =>
    run.backendKilled && server.reservationIds.some((id) => o.startsWith(`${run.userId}/${id}.`));
  const withoutRow = server.objects.filter((o) => !rowPaths.has(o));
  const leftImages = withoutRow.filter(leftByKill);
  if (leftImages.length)
    run.notes.push(`${leftImages.length} image(s) left by a send cut by the backend kill (removed later)`);
  const orphans = withoutRow.filter((o) => !leftByKill(o));
  if (orphans.length) run.violation(where, `${orphans.length} images without a row: ${orphans[0]}`);

  const page = await ensurePage(run);
  // Device and server agree (rows with their flags, deletions); a lag is waited out for a few seconds.
  let d: DexieState | null = null;
  let diff = "";
  const convergeStart = mark();
  // A lag is given 10 s of waiting between reads, as before (40 × 250 ms), read every 100 ms.
  for (let i = 0; i < 100; i++) {
    d = await readDexie(page);
    const fresh = await readServer(s, run.userId);
    const dev = d.generations
      .filter((g) => g.userId === run.userId)
      .map((g) => `${g.id}:${flags(g.isSaved, g.isPublic, g.removedAt)}`)
      .sort();
    const srv = fresh.rows.map((r) => `${r.id}:${flags(r.is_saved, r.is_public, r.removed_at)}`).sort();
    const onlyDev = dev.filter((x) => !srv.includes(x));
    const onlySrv = srv.filter((x) => !dev.includes(x));
    const dupes = dev.length !== new Set(dev).size;
    const collections = libraryListsDiff(d, fresh, run.userId);
    const prefsDev = d.preferences.find((p) => p.userId === run.userId);
    const prefsDiff =
      prefsDev && fresh.prefs
        ? prefsDev.defaultStyle !== fresh.prefs.default_style || prefsDev.defaultQuality !== fresh.prefs.default_quality
        : false;
    diff =
      onlyDev.length || onlySrv.length || dupes || prefsDiff || collections
        ? `device-only ${JSON.stringify(onlyDev.slice(0, 3))} server-only ${JSON.stringify(onlySrv.slice(0, 3))}` +
          collections +
          (dupes ? " duplicates on device" : "") +
          (prefsDiff
            ? ` preferences device ${prefsDev?.defaultStyle}/${prefsDev?.defaultQuality} server ${fresh.prefs?.default_style}/${fresh.prefs?.default_quality}`
            : "")
        : "";
    if (!diff) break;
    await sleep(100);
  }
  addSince(run.profile, "invariants: device and server converge", convergeStart);
  if (diff) run.violation(where, `device and server disagree: ${diff}`);
  const unmet = unmetAsks(run, await readServer(s, run.userId));
  if (unmet) run.violation(where, unmet);
  if (!d) return;
  const genIds = new Set(d.generations.map((g) => g.id));
  const strayImages = d.images.filter((id) => !genIds.has(id));
  if (strayImages.length) run.violation(where, `${strayImages.length} device images without a row: ${strayImages[0]}`);

  // The outbox is empty, or what is left are conflicts the person has been shown.
  const left = d.outbox.filter((o) => o.userId === run.userId);
  const hidden = left.filter((o) => o.status !== "conflict" || !o.conflict?.notified);
  if (hidden.length)
    run.violation(
      where,
      `outbox holds ${hidden.length} entries not shown as conflicts (${hidden.map(outboxState).join("; ")})`,
    );

  // Every task: a row (or a deletion by the person), a visible failure with no row, or a held wait.
  const serverIds = new Set(server.rows.map((r) => r.id));
  const tasks = new Map(d.tasks.filter((t) => t.userId === run.userId).map((t) => [t.id, t]));
  for (const id of run.knownTasks) {
    const t = tasks.get(id);
    const hasRow = serverIds.has(id) || run.deletedIds.has(id) || run.everOnServer.has(id);
    if (!t) {
      const refusedThenCleared = (run.refusedAt.get(id) ?? Number.POSITIVE_INFINITY) < run.signedOutAt;
      if (!hasRow && !run.lostWithStorage.has(id) && !run.failedSeen.has(id) && !refusedThenCleared)
        run.violation(where, `task ${id} was lost (no record, no row)`);
      continue;
    }
    if (t.status === "done" && !hasRow) run.violation(where, `task ${id} is done but the server has no row`);
    if (t.status === "error" && hasRow)
      run.violation(
        where,
        `task ${id} failed (${t.error?.code}: ${t.error?.message}, ${t.attempts ?? 0} sends) yet has a row`,
      );
    if (t.status === "error" && !t.error?.code) run.violation(where, `task ${id} failed with no error shown`);
    if (t.status === "queued" && hasRow)
      run.violation(
        where,
        `task ${id} still queued (wait ${t.wait?.reason ?? "none"}, ${t.attempts ?? 0} sends) but the server made its row`,
      );
  }
}

// ---- One schedule ----------------------------------------------------------------------------------------

/**
 * How long one schedule may run before the harness gives up on it: FAULT_SCHEDULE_CAP_MIN minutes, 12 by
 * default (more than twice the slowest seen: 304 s, two lanes on a loaded machine; the e2e spec passes its
 * own cap, under its test timeout). A schedule that has not ended by then is a
 * violation (where "cap", not run again as a harness failure is) that says where it stood and what it waited
 * on, its trail kept, rather than a run that never ends.
 */
const SCHEDULE_CAP_MS = Number(process.env.FAULT_SCHEDULE_CAP_MIN ?? 12) * 60_000;
/** How long a capped schedule's own work may go on, after its context closed, before the next one begins. */
const CAPPED_WIND_DOWN_MS = 30_000;

export type RunOptions = ScheduleOptions & { capMs?: number };

export async function runSchedule(
  servers: Servers,
  browser: Browser,
  seed: number,
  opts: RunOptions = {},
): Promise<ScheduleResult> {
  const started = Date.now();
  const steps = makeSchedule(seed, opts);
  const run = new Run(servers, browser, seed);
  servers.providerPlan.splice(0);
  if (!servers.backendAlive()) await servers.startBackend();
  const zone = noonZone(started);
  const contextStart = mark();
  run.context = await browser.newContext({
    baseURL: servers.appUrl,
    // The person's day (and so the quota's count) starts at their own midnight: a device zone where it is
    // about noon now keeps a schedule from spanning midnight, whose reset would look like missing charges.
    timezoneId: zone,
    storageState: {
      cookies: [],
      origins: [{ origin: servers.appUrl, localStorage: [{ name: "onboarding_completed", value: "true" }] }],
    },
  });
  addSince(run.profile, "setup: browser context", contextStart);
  run.observe(run.context);
  const capMs = opts.capMs ?? SCHEDULE_CAP_MS;
  const played = playSchedule(run, steps, zone, contextStart);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ended = await Promise.race([
    played.then(() => true),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(false), capMs))),
  ]);
  clearTimeout(timer);
  if (!ended) {
    const waits = run.waiting.length ? run.waiting.join("; ") : "a step with no timed wait under way";
    run.violation(
      "cap",
      `schedule did not end within ${Math.round(capMs / 1000)} s: at ${run.phase}, waiting on ${waits}; its browser context was closed`,
    );
    run.abandoned = true;
  }
  await run.time("context close", () => run.context.close().catch(() => undefined));
  // What was still under way ends on the closed context's errors: the next schedule on these servers
  // begins once it has (or after the wind-down), so none of this one's steps runs beside it.
  if (!ended) await Promise.race([played, sleep(CAPPED_WIND_DOWN_MS)]);
  return {
    seed,
    steps: steps.map(describeStep),
    violations: run.violations,
    counters: run.counters,
    notes: run.notes,
    faults: run.faults,
    ms: Date.now() - started,
    profile: run.profile,
    stepMs: run.stepMs,
    trail: run.trail,
  };
}

/** The schedule itself, in its context: the setup, the steps, then quiescence and the final checks. */
async function playSchedule(run: Run, steps: Step[], zone: string, contextStart: ReturnType<typeof mark>) {
  try {
    await setUpSchedule(run, steps, zone);
    addSince(run.profile, "setup (all)", contextStart);
    await playSteps(run, steps);
    if (!run.abandoned) await quiesce(run);
  } catch (e) {
    // A browser that is gone (it crashed, or the machine killed it) is said so: the next schedule relaunches it.
    const gone = run.browser.isConnected() ? "" : " (the browser is gone: it crashed or was killed)";
    run.violation("harness", `schedule aborted${gone}: ${String((e as Error).stack ?? e).slice(0, 400)}`);
  }
}

async function setUpSchedule(run: Run, steps: Step[], zone: string): Promise<void> {
  const { servers } = run;
  run.phase = "setup";
  await run.time("setup: user on the server", async () => {
    // Signed up in the device's zone, where it is about noon: the quota's day, which starts at the person's
    // midnight, then cannot end during the schedule, whose reset would read as missing charges. A zone set
    // after sign-up would take over only at the next reset (seed 5170 ran across UTC midnight that way).
    run.userId = await signUpUser(servers, run.email, PASSWORD, zone);
    const resetIn = (await quotaResetAt(servers, run.userId)) - Date.now();
    if (resetIn < SCHEDULE_CAP_MS) {
      throw new Error(`the quota's day ends in ${Math.round(resetIn / 60_000)} min, within a schedule's cap`);
    }
    // A paid tier, so the day's quota is never what stops a schedule (the quota fault spends it on purpose);
    // premium where the schedule changes custom styles, which only premium may.
    const tier = steps.some((s) => s.kind === "style") ? "premium" : "pro";
    await patchLimits(servers, run.userId, { subscription_tier: tier });
  });
  if (steps.some((s) => s.kind === "report")) {
    run.othersImages = await run.time("setup: another person's published images", () =>
      othersPublishedImages(servers, `other-${run.email}`, PASSWORD, 2),
    );
    run.twiceReported = run.othersImages[0];
    await run.time("setup: two more people report one of them", () =>
      reportedByOthers(servers, `reporter-${run.email}`, PASSWORD, run.othersImages[0], 2),
    );
  }
  if (steps.some((s) => s.kind === "moderate")) {
    run.operator = await run.time("setup: an operator", () =>
      operatorToken(servers, `operator-${run.email}`, PASSWORD),
    );
  }
  // A blank first tab: signing in opens /auth in it (it used to open /auth, then load it again).
  const page = await run.time("setup: first page", () => run.newPage(null));
  await signIn(run, page);
  await run.time("setup: service worker ready", () =>
    page.evaluate(() => navigator.serviceWorker?.ready.then(() => true)).catch(() => false),
  );
  await run.time("setup: open generator", () => openGenerator(page));
}

async function playSteps(run: Run, steps: Step[]): Promise<void> {
  const { servers } = run;
  for (let i = 0; i < steps.length && !run.abandoned; i++) {
    run.stepIndex = i;
    const step = steps[i];
    const label = `step ${i} ${describeStep(step)}`;
    run.phase = label;
    run.note(label);
    const stepStart = mark();
    try {
      if (isFault(step)) {
        run.faults[step.kind] = (run.faults[step.kind] ?? 0) + 1;
        await runFault(run, step);
      } else await runAction(run, step);
    } catch (e) {
      if (run.abandoned) return;
      run.notes.push(
        `${label}: ${String((e as Error).message ?? e)
          .split("\n")[0]
          .slice(0, 160)}`,
      );
      await run.unrouteAll();
      if (run.offline) await run.setOffline(false);
      if (!servers.backendAlive()) await run.time("backend start", () => servers.startBackend());
    }
    run.stepMs.push(Math.round(addSince(run.profile, `step: ${step.kind}`, stepStart)));
    if (run.abandoned) return;
    const d = run.mainPage ? await readDexie(run.mainPage).catch(() => null) : null;
    if (d) noteTasks(run, d);
    if (isFault(step)) await checkInvariants(run, `after ${label}`, false);
  }
}

/** Quiescence: everything restored, the person keeps one tab open until nothing is in flight; then the final checks. */
async function quiesce(run: Run): Promise<void> {
  const { servers } = run;
  run.phase = "quiescence";
  const quiescenceStart = mark();
  await run.unrouteAll();
  servers.providerPlan.splice(0);
  if (run.offline) await run.setOffline(false);
  if (!servers.backendAlive()) await servers.startBackend();
  const page2 = await ensurePage(run);
  if (!run.signedIn) await signIn(run, page2).catch((e) => run.notes.push(`final sign-in: ${e}`));
  await openGenerator(page2).catch(() => undefined);
  await signInIfSignedOut(run, page2);
  const still = await settle(run, 45_000, "settle (quiescence)");
  if (still) run.violation("quiescence", `never quiescent: ${still}`);
  await run.time("settle (sends lost with storage)", () => lostSendsEnded(run, 10_000));
  await checkInvariants(run, "quiescence", true);
  if (run.othersImages.length) await run.time("invariants (reports)", () => checkReports(run));
  // Failed tasks are visible: the page's Failed counter shows them.
  const failed = (run.lastDexie?.tasks ?? []).filter((t) => t.userId === run.userId && t.status === "error").length;
  if (failed) {
    const shown = await page2
      .evaluate(() => {
        const dl = document.querySelector('dl[aria-label="Queue counters"]');
        const dt = [...(dl?.querySelectorAll("dt") ?? [])].find((x) => x.textContent?.trim() === "Failed");
        const dd = dt?.parentElement?.querySelector("dd") ?? dt?.nextElementSibling;
        return Number(dd?.textContent?.trim() ?? 0);
      })
      .catch(() => 0);
    if (shown < failed) run.violation("quiescence", `${failed} failed tasks, ${shown} shown as failed`);
  }
  addSince(run.profile, "quiescence and final checks", quiescenceStart);
}

export function addCounters(into: Counters, from: Counters): void {
  for (const p of RECOVERY_PATHS) into[p] += from[p];
}

export function counterTable(counters: Counters): string {
  return RECOVERY_PATHS.map((p) => `  ${p.padEnd(38)} ${counters[p] ? String(counters[p]) : "NOT EXERCISED"}`).join(
    "\n",
  );
}
