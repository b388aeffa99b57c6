// Seeded schedules: a seed gives one list of steps (person actions mixed with faults), always the same
// list for the same seed, so a violation is reproduced by its seed alone.
import { seededRandom } from "../support/seeded-random";

export type ActionStep =
  | { kind: "generate" }
  | { kind: "batch"; count: number }
  | { kind: "save" }
  | { kind: "publish" }
  | { kind: "delete" }
  | { kind: "preference" }
  | { kind: "signOutIn" }
  | { kind: "collect" }
  | { kind: "style" }
  | { kind: "report" }
  | { kind: "moderate" };

export type FaultStep =
  | { kind: "offlineFlap"; ms: number; generateWhileOffline: boolean }
  | { kind: "tabCloseMidSend" }
  | { kind: "crashMidSend" }
  | { kind: "extraTabs"; count: number }
  | { kind: "workerSync" }
  | { kind: "backendKill"; downMs: number; midSend: boolean }
  | { kind: "tokenExpired" }
  | { kind: "refreshRefused" }
  | { kind: "lostResponse"; target: "generate" | "rest" }
  | { kind: "idbDeleted" }
  | { kind: "quotaZeroBatch"; count: number }
  | { kind: "provider"; modes: ("429" | "500" | "hang")[] };

export type Step = ActionStep | FaultStep;

export const FAULT_KINDS: readonly FaultStep["kind"][] = [
  "offlineFlap",
  "tabCloseMidSend",
  "crashMidSend",
  "extraTabs",
  "workerSync",
  "backendKill",
  "tokenExpired",
  "refreshRefused",
  "lostResponse",
  "idbDeleted",
  "quotaZeroBatch",
  "provider",
];

export function isFault(step: Step): step is FaultStep {
  return (FAULT_KINDS as readonly string[]).includes(step.kind);
}

export type ScheduleOptions = { minSteps?: number; maxSteps?: number };

/** One of `table`'s makers, chosen by weight with `rnd`, called. */
export function pickWeighted<T>(rnd: () => number, table: [number, () => T][]): T {
  const total = table.reduce((s, [w]) => s + w, 0);
  let r = rnd() * total;
  for (const [w, make] of table) {
    r -= w;
    if (r < 0) return make();
  }
  return table[table.length - 1][1]();
}

/** The schedule of `seed`: 10-30 steps by default, about half of them faults, starting with a generation. */
export function makeSchedule(seed: number, opts: ScheduleOptions = {}): Step[] {
  const rnd = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)];
  const min = opts.minSteps ?? 10;
  const max = opts.maxSteps ?? 30;
  const length = int(min, max);
  const steps: Step[] = [{ kind: "generate" }];
  // Weighted choices: generations dominate, because most faults need something in flight.
  const actions: [number, () => ActionStep][] = [
    [5, () => ({ kind: "generate" })],
    [2, () => ({ kind: "batch", count: int(2, 4) })],
    [2, () => ({ kind: "save" })],
    [2, () => ({ kind: "publish" })],
    [1, () => ({ kind: "delete" })],
    [1, () => ({ kind: "preference" })],
    [1, () => ({ kind: "signOutIn" })],
  ];
  const faults: [number, () => FaultStep][] = [
    [3, () => ({ kind: "offlineFlap", ms: int(200, 1500), generateWhileOffline: rnd() < 0.6 })],
    [1, () => ({ kind: "tabCloseMidSend" })],
    [1, () => ({ kind: "crashMidSend" })],
    [1, () => ({ kind: "extraTabs", count: int(1, 4) })],
    [1, () => ({ kind: "workerSync" })],
    [1, () => ({ kind: "backendKill", downMs: int(200, 1500), midSend: rnd() < 0.5 })],
    [1, () => ({ kind: "tokenExpired" })],
    [1, () => ({ kind: "refreshRefused" })],
    [2, () => ({ kind: "lostResponse", target: rnd() < 0.6 ? "generate" : "rest" })],
    [1, () => ({ kind: "idbDeleted" })],
    [1, () => ({ kind: "quotaZeroBatch", count: int(2, 4) })],
    [
      2,
      () => ({
        kind: "provider",
        modes: Array.from({ length: int(1, 2) }, () => pick(["429", "500", "hang"] as const)),
      }),
    ],
  ];
  const weighted = <T>(table: [number, () => T][]): T => pickWeighted(rnd, table);
  while (steps.length < length) steps.push(rnd() < 0.5 ? weighted(actions) : weighted(faults));
  return withModerating(seed, withReporting(seed, withStyling(seed, withCollecting(seed, steps))));
}

/** Where the collections' stream of a seed starts: apart from the stream the steps above are drawn from. */
const COLLECT_STREAM = 0x5eed_c011;

/**
 * Collections (decision 157) join a schedule from a stream of their own, so the steps drawn above stay the
 * ones each seed always drew (a seed kept for the fault it found still makes it): after about one step in
 * eight, an image is put into a collection or taken out of one.
 */
function withCollecting(seed: number, steps: Step[]): Step[] {
  const more = seededRandom(seed ^ COLLECT_STREAM);
  return steps.flatMap((step, i): Step[] => (i > 0 && more() < 0.125 ? [step, { kind: "collect" }] : [step]));
}

/** Where the custom styles' stream of a seed starts: apart from the two streams above. */
const STYLE_STREAM = 0x5eed_57e1;

/**
 * Custom styles (decision 152) join half the schedules, from a stream of their own as collections do (the
 * steps drawn above stay as they were): after about one step in eight, a style is made, renamed or deleted.
 * A schedule with style steps runs on the premium tier, which alone may change styles.
 */
function withStyling(seed: number, steps: Step[]): Step[] {
  const more = seededRandom(seed ^ STYLE_STREAM);
  if (more() >= 0.5) return steps;
  return steps.flatMap((step, i): Step[] => (i > 0 && more() < 0.125 ? [step, { kind: "style" }] : [step]));
}

/** Where the reports' stream of a seed starts: apart from the three streams above. */
const REPORT_STREAM = 0x5eed_4e90;

/**
 * Reports (decision 188) join about a third of the schedules, from a stream of their own as collections and
 * styles do (the steps drawn above stay as they were): after about one step in eight, the person reports
 * another person's published image from its page. Such a schedule starts with that other person's images.
 */
function withReporting(seed: number, steps: Step[]): Step[] {
  const more = seededRandom(seed ^ REPORT_STREAM);
  if (more() >= 0.35) return steps;
  return steps.flatMap((step, i): Step[] => (i > 0 && more() < 0.125 ? [step, { kind: "report" }] : [step]));
}

/** Where the operators' stream of a seed starts: apart from the four streams above. */
const MODERATE_STREAM = 0x5eed_30d3;

/**
 * An operator (decision 194) acts in half the schedules where the person publishes, from a stream of its own
 * as the three above (the steps drawn before stay as they were): after the first publish, after about one step
 * in six, an operator takes one of the person's published images out of the gallery, or puts back one taken out.
 */
function withModerating(seed: number, steps: Step[]): Step[] {
  const more = seededRandom(seed ^ MODERATE_STREAM);
  const first = steps.findIndex((s) => s.kind === "publish");
  if (first < 0 || more() >= 0.5) return steps;
  return steps.flatMap((step, i): Step[] => (i >= first && more() < 1 / 6 ? [step, { kind: "moderate" }] : [step]));
}

export function describeStep(step: Step): string {
  const { kind, ...rest } = step;
  const args = Object.entries(rest)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join("+") : String(v)}`)
    .join(" ");
  return args ? `${kind}(${args})` : kind;
}
