// The fuzz run: request `index` of `seed` is drawn from its own stream (any one rebuilt alone), sent
// `concurrency` at a time against one backend, each answer timed, while /health is asked every
// `healthEveryMs`. A failure is a 5xx, a reset or a crash; a stall is an answer slower than `stallMs`
// (a drawn image: `renderMs`), or /health slower than `healthMs` while requests were in flight. On a
// shared machine a stall may be the machine's, not the request's, so each stalled request (and every
// request in flight during a slow /health) is sent again alone: a stall that comes back is confirmed.
// Sent alone, an auth request that carries a password is allowed its password derivations' cost on
// this machine at that moment on top of `stallMs` (decisions 185 and 187).
import { randomUUID } from "node:crypto";
import { hashPassword } from "../../supabase/local/auth/passwords.ts";
import type { Backend } from "../../tests/support/backend.ts";
import { type Answer, HANG_MS } from "../../tests/support/hostile.ts";
import { authCase } from "./auth.ts";
import { functionsCase } from "./functions.ts";
import { caseRandom, type Rng } from "./grammar.ts";
import { realtimeCase } from "./realtime.ts";
import { restCase } from "./rest.ts";
import { rpcCase } from "./rpc.ts";
import { callerToken, sendCase } from "./send.ts";
import { storageCase } from "./storage.ts";
import { renewTokens } from "./world-setup.ts";
import { BAD_TOKENS, type FuzzCase, SIGNED_IN, type Surface, type Who, type World } from "./world.ts";

export interface FuzzOptions {
  seed: number;
  requests: number;
  concurrency: number;
  /** An answer slower than this is a stall (1,000 ms). */
  stallMs: number;
  /** The bound of an answer that drew an image: drawing is the work asked for. */
  renderMs: number;
  /** /health slower than this while requests are in flight is a stall (100 ms). */
  healthMs: number;
  healthEveryMs: number;
  /** Send only these indexes of the seed (reproducing a finding). */
  only?: number[];
  /** Send stalled requests again alone and count only the stalls that come back. */
  confirm: boolean;
  /** At most this many stalled requests are sent again (the rest are reported as not replayed). */
  maxReplays: number;
  progress?: (line: string) => void;
}

export const DEFAULT_OPTIONS: Omit<FuzzOptions, "seed" | "requests"> = {
  concurrency: 4,
  stallMs: 1000,
  renderMs: 15_000,
  healthMs: 100,
  healthEveryMs: 100,
  confirm: true,
  maxReplays: 5000,
};

export interface Finding {
  seed: number;
  index: number;
  kind: "5xx" | "stall";
  case: FuzzCase;
  answer: Answer;
  /** The answer in the run (for a stall, `answer` is the last one sent alone, when sent again). */
  loadAnswer: Answer;
  /** For a stall: seen again each time it was sent alone (null when not sent again). */
  confirmed: boolean | null;
}

export interface FuzzResult {
  database: string;
  seed: number;
  requests: number;
  byClass: Record<string, number>;
  bySurface: Record<string, number>;
  failures: Finding[];
  stalls: Finding[];
  health: { probes: number; slow: number; worstMs: number };
  elapsedMs: number;
  /** Stalls were sent again alone (only those seen again count). */
  confirmed: boolean;
}

const SURFACES: readonly [number, Surface][] = [
  [30, "rest"],
  [12, "rpc"],
  [20, "storage"],
  [12, "auth"],
  [12, "realtime"],
  [12, "functions"],
];

function who(r: Rng): Who {
  return r.weighted<Who>([
    [3, () => "anon"],
    [6, () => r.pick(SIGNED_IN)],
    [2, () => r.pick(BAD_TOKENS)],
  ]);
}

/** Request `index` of `seed`: the same pair gives the same request on any backend with a world. */
export function generateCase(seed: number, index: number, world: World): FuzzCase {
  const r = caseRandom(seed, index);
  const caller = who(r);
  const surface = r.weighted(SURFACES.map(([w, s]) => [w, () => s] as const));
  switch (surface) {
    case "rest":
      return restCase(r, world, caller);
    case "rpc":
      return rpcCase(r, world, caller);
    case "storage":
      return storageCase(r, world, caller);
    case "auth":
      return authCase(r, world, caller);
    case "realtime":
      return realtimeCase(r, world, caller);
    default:
      return functionsCase(r, world, caller);
  }
}

/** Recent /health times a slow one is compared with. */
const HEALTH_WINDOW = 30;
/** A /health probe stands out when it is over this many times the recent median (and over healthMs). */
const HEALTH_OUTLIER = 3;

/**
 * Asks /health every `healthEveryMs` until stopped. Every probe over `healthMs` is counted; those that
 * also stand out from the recent median (HEALTH_OUTLIER times it) name what was in flight as suspects:
 * on a machine whose other work holds /health over 100 ms a third of the time, the rest say more
 * about the machine than about any request.
 */
function watchHealth(b: Backend, o: FuzzOptions, inFlight: () => number[]) {
  const suspects: { ms: number; during: number[] }[] = [];
  const recent: number[] = [];
  let probes = 0;
  let over = 0;
  let worstMs = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const during = inFlight();
      const t0 = performance.now();
      try {
        await (await fetch(`${b.url}/health`, { signal: AbortSignal.timeout(10_000) })).arrayBuffer();
      } catch {
        /* a failed probe counts by its time like any other */
      }
      const ms = performance.now() - t0;
      const median = [...recent].sort((x, y) => x - y)[Math.floor(recent.length / 2)] ?? 0;
      recent.push(ms);
      if (recent.length > HEALTH_WINDOW) recent.shift();
      probes++;
      worstMs = Math.max(worstMs, ms);
      if (ms > o.healthMs) over++;
      if (ms > o.healthMs && ms > HEALTH_OUTLIER * median && during.length) {
        suspects.push({ ms, during: [...new Set([...during, ...inFlight()])] });
      }
      await new Promise((r) => setTimeout(r, o.healthEveryMs));
    }
  })();
  return {
    suspects,
    probes: () => probes,
    async stop() {
      stopped = true;
      await loop;
      return { probes, slow: over, worstMs };
    },
  };
}

const drawing = (c: FuzzCase) => c.kind === "http" && c.path.startsWith("/functions/v1/generate-image");
/** A generate-image answered 2xx drew an image (or replayed one), the work asked for: the render bound holds. */
const drew = (c: FuzzCase, a: Answer) => drawing(c) && a.cls === "2xx";
/** How long to wait before calling no answer a hang: a drawing is waited for past its own bound. */
const hangMs = (c: FuzzCase, o: FuzzOptions) => (drawing(c) ? Math.max(HANG_MS, o.renderMs + HANG_MS) : HANG_MS);
const isStall = (c: FuzzCase, a: Answer, o: FuzzOptions) =>
  a.cls === "hang" || a.ms > (drew(c, a) ? o.renderMs : o.stallMs);
const TOKEN_RENEW_MS = 20 * 60_000;

/**
 * The password derivations an auth request may ask for, each a deliberately slow hash: a new password is
 * checked against the old one, then hashed (PUT /auth/v1/user, two); sign-up hashes once and sign-in checks
 * once (one). A request without a password asks for none.
 */
function passwordDerivations(c: FuzzCase): number {
  if (c.kind !== "http" || !c.path.startsWith("/auth/v1/")) return 0;
  if (typeof c.body !== "string" || !/"password"\s*:/.test(c.body)) return 0;
  return c.method === "PUT" && c.path.split("?")[0] === "/auth/v1/user" ? 2 : 1;
}

/** What one derivation costs on this machine now: the auth server's own hash, timed here. */
async function derivationMs(): Promise<number> {
  const started = performance.now();
  await hashPassword("fuzz baseline");
  return performance.now() - started;
}

/** Sends the seed's requests against `b` and returns what it found. */
export async function runFuzz(b: Backend, world: World, o: FuzzOptions): Promise<FuzzResult> {
  const indexes = o.only ?? Array.from({ length: o.requests }, (_, i) => i);
  const byClass: Record<string, number> = {};
  const bySurface: Record<string, number> = {};
  const failures: Finding[] = [];
  const slowAnswers = new Map<number, Answer>();
  const flying = new Set<number>();
  const started = performance.now();
  let renewedAt = Date.now();
  let next = 0;
  let done = 0;
  const health = watchHealth(b, o, () => [...flying]);
  const lane = async () => {
    while (next < indexes.length) {
      const index = indexes[next++];
      if (Date.now() - renewedAt > TOKEN_RENEW_MS) {
        renewedAt = Date.now();
        await renewTokens(world);
      }
      const c = generateCase(o.seed, index, world);
      const token = await callerToken(world, c);
      flying.add(index);
      const a = await sendCase(b, world, c, token, hangMs(c, o));
      flying.delete(index);
      byClass[a.cls] = (byClass[a.cls] ?? 0) + 1;
      bySurface[c.surface] = (bySurface[c.surface] ?? 0) + 1;
      if (a.cls === "5xx" || a.cls === "reset" || a.cls === "crash") {
        failures.push({ seed: o.seed, index, kind: "5xx", case: c, answer: a, loadAnswer: a, confirmed: null });
      } else if (isStall(c, a, o)) slowAnswers.set(index, a);
      if (++done % 500 === 0) o.progress?.(`  ${done}/${indexes.length} sent (${b.database}, seed ${o.seed})`);
      if (a.cls === "crash") return;
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, lane));
  const healthSummary = await health.stop();
  const elapsedMs = performance.now() - started;
  const stalls = await stallFindings(b, world, o, slowAnswers, health.suspects);
  return {
    database: b.database,
    seed: o.seed,
    requests: done,
    byClass,
    bySurface,
    failures,
    stalls,
    health: healthSummary,
    elapsedMs,
    confirmed: o.confirm,
  };
}

/** The stalls seen, each sent again alone when `o.confirm` to tell the request's from the machine's. */
async function stallFindings(
  b: Backend,
  world: World,
  o: FuzzOptions,
  slowAnswers: Map<number, Answer>,
  slowHealth: { ms: number; during: number[] }[],
): Promise<Finding[]> {
  // The slowest answers first, then what was in flight during the slowest /health: if there are more
  // than o.maxReplays, the likeliest culprits are the ones sent again.
  const suspects = new Map<number, Answer>([...slowAnswers].sort((a, b) => b[1].ms - a[1].ms));
  for (const h of [...slowHealth].sort((a, b) => b.ms - a.ms)) {
    for (const index of h.during) {
      if (suspects.has(index)) continue;
      const detail = `/health took ${h.ms.toFixed(0)} ms while this was in flight`;
      suspects.set(index, { cls: "2xx", status: null, detail, ms: h.ms });
    }
  }
  const found: Finding[] = [];
  let replayed = 0;
  // Work the run left on the server (a render whose client stopped waiting) would delay the first replays.
  if (o.confirm && suspects.size) await new Promise((r) => setTimeout(r, SETTLE_MS));
  for (const [index, answer] of suspects) {
    const c = generateCase(o.seed, index, world);
    const replay = o.confirm && replayed < o.maxReplays;
    const again = replay ? await replayAlone(b, world, c, o) : null;
    if (replay && ++replayed % 25 === 0)
      o.progress?.(`  ${replayed}/${Math.min(suspects.size, o.maxReplays)} stalls sent again alone`);
    found.push({
      seed: o.seed,
      index,
      kind: "stall",
      case: c,
      answer: again?.answer ?? answer,
      loadAnswer: answer,
      confirmed: again ? again.stalled : null,
    });
  }
  return found;
}

/** A pause between the run and its replays, for the server to finish what the run left it. */
const SETTLE_MS = 5000;

/** Replays of a stalled request; it is confirmed when every one stalls (a busy machine rarely stalls twice). */
const REPLAYS = 2;

/** Sends `c` alone REPLAYS times: does it stall each time? The last answer, or the first that did not stall. */
export async function replayAlone(
  b: Backend,
  world: World,
  c: FuzzCase,
  o: FuzzOptions,
): Promise<{ answer: Answer; stalled: boolean }> {
  let last = await replayOnce(b, world, c, o);
  for (let i = 1; i < REPLAYS && last.stalled; i++) last = await replayOnce(b, world, c, o);
  return last;
}

/**
 * The case with a new generate-image request id: sent again with its own, the request would be answered
 * from the stored generation, not run again.
 */
function anotherRequestId(c: FuzzCase): FuzzCase {
  if (!drawing(c) || c.kind !== "http" || typeof c.body !== "string") return c;
  return { ...c, body: c.body.replace(/("request_id":")[0-9a-f-]{36}/, `$1${randomUUID()}`) };
}

/** Probes of /health with nothing in flight before a replay, for the machine's own time at that moment. */
const BASELINE_PROBES = 5;

/**
 * Sends `c` with nothing else in flight, /health asked every 20 ms meanwhile. A slow /health counts
 * when it is over `healthMs` and over twice the worst of BASELINE_PROBES asked just before: on a busy
 * machine /health is slow with or without the request, and only what the request adds is its own.
 */
async function replayOnce(
  b: Backend,
  world: World,
  c: FuzzCase,
  o: FuzzOptions,
): Promise<{ answer: Answer; stalled: boolean }> {
  const token = await callerToken(world, c);
  const baseline = watchHealth(b, { ...o, healthEveryMs: 20 }, () => []);
  while (baseline.probes() < BASELINE_PROBES) await new Promise((r) => setTimeout(r, 20));
  const before = await baseline.stop();
  const watcher = watchHealth(b, { ...o, healthEveryMs: 20 }, () => [0]);
  const answer = await sendCase(b, world, anotherRequestId(c), token, hangMs(c, o));
  const h = await watcher.stop();
  const slowHealth = h.worstMs > Math.max(o.healthMs, 2 * before.worstMs);
  // A password's derivations are the work asked for, as a drawing is: their cost on this machine now is
  // allowed on top of the bound, and only what the request adds beyond them is its own.
  const derivations = passwordDerivations(c);
  const allowance = derivations ? derivations * (await derivationMs()) : 0;
  const detail =
    `${answer.detail} | /health ${h.worstMs.toFixed(0)} ms at worst meanwhile, ${before.worstMs.toFixed(0)} ms before` +
    (allowance ? ` | ${allowance.toFixed(0)} ms allowed for ${derivations} password derivation(s)` : "");
  const stalled = isStall(c, answer, { ...o, stallMs: o.stallMs + allowance }) || slowHealth;
  return { answer: { ...answer, detail }, stalled };
}
