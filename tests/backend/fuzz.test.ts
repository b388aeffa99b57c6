// The fuzzer's fixed seeds (bench/fuzz/seeds.ts) on PGlite and on PostgreSQL: CI_RUNS' generated
// requests against a fresh backend, then every request that once found a fault, sent alone. The suite
// fails on any 5xx, reset or crash, and on any stall seen again when its request is sent alone (an
// answer over 1 s, plus its password derivations' cost when it carries a password, or /health over 100 ms
// meanwhile; FUZZ_STALL_MS and FUZZ_HEALTH_MS move the bounds),
// naming the seed, the request and the command that sends it again.
import { beforeAll, expect, it } from "vitest";
import { caseFingerprint, countedStalls, describeCase, formatReport, reproduce } from "../../bench/fuzz/report.ts";
import {
  DEFAULT_OPTIONS,
  type Finding,
  type FuzzOptions,
  generateCase,
  replayAlone,
  runFuzz,
} from "../../bench/fuzz/run.ts";
import { CI_RUNS, FOUND } from "../../bench/fuzz/seeds.ts";
import { setUpWorld } from "../../bench/fuzz/world-setup.ts";
import type { World } from "../../bench/fuzz/world.ts";
import { describeOnBackends } from "../support/backend-suite.ts";

/** A seed of 1,000 requests took about a minute on two busy cores; the bound leaves room for a slow CI host. */
const RUN_TIMEOUT_MS = 10 * 60_000;

/** Stalled requests sent again alone in CI, the slowest first: each costs two sends and a baseline. */
const CI_REPLAYS = 60;

const bounds = (seed: number, requests: number): FuzzOptions => ({
  ...DEFAULT_OPTIONS,
  maxReplays: CI_REPLAYS,
  seed,
  requests,
  stallMs: Number(process.env.FUZZ_STALL_MS ?? DEFAULT_OPTIONS.stallMs),
  healthMs: Number(process.env.FUZZ_HEALTH_MS ?? DEFAULT_OPTIONS.healthMs),
});

const line = (database: string) => (f: Finding) =>
  `seed ${f.seed} #${f.index} ${f.kind}: ${f.answer.cls} ${f.answer.status ?? ""} after ${f.answer.ms.toFixed(0)} ms ` +
  `(${f.answer.detail.slice(0, 160)}) — ${describeCase(f.case).slice(0, 400)} — ${reproduce(f, database)}`;

describeOnBackends("fuzz seeds on $title", { prefix: "pc_fuzz" }, (b, { skip }) => {
  let world: World;

  beforeAll(async () => {
    if (skip) return;
    world = await setUpWorld(b);
  }, 120_000);

  it.skipIf(skip).each(CI_RUNS)(
    "seed $seed: $requests generated requests, no server error and no stall",
    async ({ seed, requests }) => {
      const r = await runFuzz(b, world, bounds(seed, requests));
      console.log(formatReport([r]));
      expect(r.requests).toBe(requests);
      expect([...r.failures, ...countedStalls(r)].map(line(b.database))).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );

  it.skipIf(skip || FOUND.length === 0).each(FOUND)(
    "seed $seed #$index, which found $found, now answers in time and without a server error",
    async ({ seed, index, fingerprint }) => {
      const c = generateCase(seed, index, world);
      // The grammars changed what this seed and index make: the fixed request would no longer be tested.
      expect(caseFingerprint(c, world), `seed ${seed} #${index} is now ${describeCase(c).slice(0, 300)}`).toBe(
        fingerprint,
      );
      const { answer, stalled } = await replayAlone(b, world, c, bounds(seed, 1));
      expect({ cls: answer.cls, stalled, detail: answer.detail.slice(0, 200) }).toMatchObject({
        cls: expect.not.stringMatching(/5xx|reset|crash|hang/),
        stalled: false,
      });
    },
    60_000,
  );
});
