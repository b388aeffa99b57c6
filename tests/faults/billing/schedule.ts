// Seeded schedules for the payments pipeline: a seed gives one list of steps, a person's moves through
// checkout and the billing portal mixed with Stripe's clock and the stand-in's webhook faults (events
// dropped, duplicated, reordered, delayed), always the same list for the same seed.
import { seededRandom } from "../../support/seeded-random";
import { pickWeighted } from "../schedule";

export type Plan = "creator" | "pro";
/** The stand-in's test cards: pays and renews, pays once then every renewal fails, declined at checkout. */
export type Card = "pays" | "renewalFails" | "declined";

export type BillingAction =
  | { kind: "buy"; plan: Plan; card: Card }
  | { kind: "pressTwice"; plan: Plan }
  | { kind: "twoPlansTwoTabs" }
  | { kind: "cancel" }
  | { kind: "resume" }
  | { kind: "switch"; plan: Plan }
  | { kind: "newCard"; card: Card }
  | { kind: "advanceDays"; days: number }
  | { kind: "successPage" };

/** A webhook fault applies to the events of the next `count` events the stand-in sends. */
export type BillingFault =
  | { kind: "drop"; count: number }
  | { kind: "duplicate"; count: number }
  | { kind: "reorder"; count: number }
  | { kind: "delay"; ms: number; count: number };

export type BillingStep = BillingAction | BillingFault;

const FAULTS: readonly string[] = ["drop", "duplicate", "reorder", "delay"];
export const isBillingFault = (step: BillingStep): step is BillingFault => FAULTS.includes(step.kind);

/** The schedule of `seed`: 6–16 steps, starting with a purchase, about a third of them faults. */
export function makeBillingSchedule(seed: number): BillingStep[] {
  const rnd = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const plan = (): Plan => (rnd() < 0.5 ? "creator" : "pro");
  const card = (): Card => {
    const r = rnd();
    return r < 0.6 ? "pays" : r < 0.85 ? "renewalFails" : "declined";
  };
  const actions: [number, () => BillingAction][] = [
    [3, () => ({ kind: "buy", plan: plan(), card: card() })],
    [1, () => ({ kind: "pressTwice", plan: plan() })],
    [1, () => ({ kind: "twoPlansTwoTabs" })],
    [2, () => ({ kind: "cancel" })],
    [1, () => ({ kind: "resume" })],
    [2, () => ({ kind: "switch", plan: plan() })],
    [1, () => ({ kind: "newCard", card: card() === "renewalFails" ? "renewalFails" : "pays" })],
    // Past a renewal (a month), past a failed renewal's retries (3, 5 and 7 days), or a few days.
    [3, () => ({ kind: "advanceDays", days: [2, 8, 31, 40][int(0, 3)] })],
    [1, () => ({ kind: "successPage" })],
  ];
  const faults: [number, () => BillingFault][] = [
    [2, () => ({ kind: "drop", count: int(1, 3) })],
    [2, () => ({ kind: "duplicate", count: int(1, 4) })],
    [2, () => ({ kind: "reorder", count: int(2, 6) })],
    [1, () => ({ kind: "delay", ms: int(100, 800), count: int(1, 3) })],
  ];
  const weighted = <T>(table: [number, () => T][]): T => pickWeighted(rnd, table);
  const steps: BillingStep[] = [{ kind: "buy", plan: plan(), card: rnd() < 0.8 ? "pays" : "renewalFails" }];
  const length = int(6, 16);
  while (steps.length < length) steps.push(rnd() < 0.35 ? weighted(faults) : weighted(actions));
  return steps;
}

export function describeBillingStep(step: BillingStep): string {
  const { kind, ...rest } = step;
  const args = Object.entries(rest)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(" ");
  return args ? `${kind}(${args})` : kind;
}
