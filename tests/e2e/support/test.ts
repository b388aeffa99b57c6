// The journeys' `test`: Playwright's, with an automatic guard that fails a test whose pages said something
// went wrong. For every page of every browser context the test opens (the `context` fixture, contexts made
// with `browser.newContext()`, and any other context handed to `watchContext`) it records
// - console messages of type "error" and uncaught page errors;
// - requests that failed (`requestfailed`: the network, an aborted route; not net::ERR_ABORTED, a request the
//   page dropped itself) and responses with a status of 400 or more.
// At teardown the test fails with the list of those its body did not declare expected. A journey that
// provokes failures on purpose (goes offline, aborts a route, asks for a page that does not exist) says so:
//   allowConsole(/pattern/, "reason")         a console error or page error whose text matches
//   allowFailedRequest(/pattern/, "reason")   a failed request or error response whose line matches; the line
//                                             is "<METHOD> <url> <net::ERR_… | status>", and Chromium's own
//                                             "Failed to load resource" console line for that load goes with it
//   allowOffline("reason")                    what the browser reports for requests made while offline
// A reason is required: it is printed beside any failure so the next reader knows why the noise is fine.
// Every spec imports `test` and `expect` from here, never from "@playwright/test".
import { test as base, type BrowserContext, type ConsoleMessage, type Request, type Response } from "@playwright/test";

export * from "@playwright/test";

type Allowance = { pattern: RegExp; reason: string };

/** What a test can declare expected; each is also a fixture of the same name. */
export type ProblemGuard = {
  allowConsole(pattern: RegExp, reason: string): void;
  allowFailedRequest(pattern: RegExp, reason: string): void;
  allowOffline(reason: string): void;
  watchContext(context: BrowserContext): void;
};

const OFFLINE = /net::ERR_INTERNET_DISCONNECTED/;

/**
 * Known app issues that show up in many journeys, at times no journey controls. Each is reported with its
 * cause and is removed from here once the app no longer produces it.
 */
const KNOWN: { console: Allowance[]; requests: Allowance[] } = {
  console: [],
  requests: [],
};

function requireReason(reason: string): void {
  if (!reason.trim()) throw new Error("an allowance needs a reason");
}

class Guard implements ProblemGuard {
  private readonly console: Allowance[] = [...KNOWN.console];
  private readonly requests: Allowance[] = [...KNOWN.requests];
  private readonly unexpected: string[] = [];
  private readonly watched = new WeakSet<BrowserContext>();

  allowConsole(pattern: RegExp, reason: string): void {
    requireReason(reason);
    this.console.push({ pattern, reason });
  }

  allowFailedRequest(pattern: RegExp, reason: string): void {
    requireReason(reason);
    this.requests.push({ pattern, reason });
  }

  allowOffline(reason: string): void {
    this.allowConsole(OFFLINE, reason);
    this.allowFailedRequest(OFFLINE, reason);
  }

  watchContext(context: BrowserContext): void {
    if (this.watched.has(context)) return;
    this.watched.add(context);
    context.on("console", (m) => this.onConsole(m));
    context.on("weberror", (e) => {
      const message = e.error().message;
      this.check({ kind: "console", text: message, line: `pageerror on ${e.page()?.url() ?? "?"}: ${message}` });
    });
    context.on("requestfailed", (r) => {
      const error = r.failure()?.errorText ?? "failed";
      // A request the page dropped itself (it navigated away, an AbortController, the context closing at the
      // end of the test) is not a failure of the server or the network. route.abort() reports net::ERR_FAILED
      // or the code it is given, so a journey's own aborts are still seen.
      if (error === "net::ERR_ABORTED") return;
      this.onRequest(r, error);
    });
    context.on("response", (r: Response) => {
      if (r.status() >= 400) this.onRequest(r.request(), String(r.status()));
    });
  }

  /** "<url> <outcome>" of each failed request an allowance covered. */
  private readonly allowedLoads = new Set<string>();
  /** Chromium's "Failed to load resource" lines, settled at the end against the allowed requests. */
  private readonly failedLoads: { key: string; text: string; line: string }[] = [];

  private onConsole(m: ConsoleMessage): void {
    if (m.type() !== "error") return;
    const text = m.text();
    const where = m.location().url;
    const line = `console.error on ${m.page()?.url() ?? where}: ${text} (at ${where})`;
    // Chromium's line for a failed load names the resource only in its location; it goes with the request's
    // own record, whichever of the two arrives first.
    const outcome = /status of (\d+)/.exec(text)?.[1] ?? /(net::ERR_\w+)/.exec(text)?.[1];
    if (text.startsWith("Failed to load resource") && where && outcome) {
      this.failedLoads.push({ key: `${where} ${outcome}`, text, line });
      return;
    }
    this.check({ kind: "console", text, line });
  }

  private onRequest(r: Request, outcome: string): void {
    const line = `${r.method()} ${r.url()} ${outcome}`;
    if (
      this.check({
        kind: "request",
        text: line,
        line: `request ${line}${r.serviceWorker() ? " (service worker)" : ""}`,
      })
    )
      this.allowedLoads.add(`${r.url()} ${outcome}`);
  }

  /** Records the problem unless an allowance covers it; answers whether one did. */
  private check(p: { kind: "console" | "request"; text: string; line: string }): boolean {
    const allowances = p.kind === "console" ? this.console : this.requests;
    if (allowances.some((a) => a.pattern.test(p.text))) return true;
    this.unexpected.push(p.line);
    return false;
  }

  report(): string | null {
    for (const load of this.failedLoads) {
      if (!this.allowedLoads.has(load.key)) this.check({ kind: "console", text: load.text, line: load.line });
    }
    this.failedLoads.length = 0;
    if (!this.unexpected.length) return null;
    const allowed = [...this.console, ...this.requests].map((a) => `  ${a.pattern} — ${a.reason}`);
    return [
      `${this.unexpected.length} unexpected console error(s) or failed request(s):`,
      ...[...new Set(this.unexpected)].map((u) => `  ${u}`),
      ...(allowed.length ? ["allowed in this test:", ...allowed] : []),
      "A journey that causes them on purpose declares them with allowConsole / allowFailedRequest / allowOffline.",
    ].join("\n");
  }
}

type Fixtures = ProblemGuard & { problemGuard: Guard };

export const test = base.extend<Fixtures>({
  problemGuard: [
    async ({ browser }, use) => {
      const guard = new Guard();
      // Contexts the test makes itself (a second device, a context without JavaScript) are watched too.
      const newContext = browser.newContext;
      browser.newContext = async function (this: typeof browser, ...args: Parameters<typeof newContext>) {
        const context = await newContext.apply(this, args);
        guard.watchContext(context);
        return context;
      };
      try {
        await use(guard);
      } finally {
        browser.newContext = newContext;
      }
      const report = guard.report();
      if (report) throw new Error(report);
    },
    { auto: true },
  ],
  context: async ({ context, problemGuard }, use) => {
    problemGuard.watchContext(context);
    await use(context);
  },
  allowConsole: async ({ problemGuard }, use) => use((p, r) => problemGuard.allowConsole(p, r)),
  allowFailedRequest: async ({ problemGuard }, use) => use((p, r) => problemGuard.allowFailedRequest(p, r)),
  allowOffline: async ({ problemGuard }, use) => use((r) => problemGuard.allowOffline(r)),
  watchContext: async ({ problemGuard }, use) => use((c) => problemGuard.watchContext(c)),
});
