// The fixed seeds: what CI sends on each database (tests/backend/fuzz.test.ts), and every request that
// once found a fault, replayed alone after its fix so the fault cannot come back unseen.

/** CI's runs on each database: a few thousand requests in all, a few minutes on two cores. */
export const CI_RUNS: readonly { seed: number; requests: number }[] = [
  { seed: 1, requests: 1000 },
  { seed: 2, requests: 1000 },
];

/**
 * Requests that found a fault: seed, index of the request, the case's fingerprint (report.ts; printed
 * by `FUZZ_ONLY=<index>`), and what it found. A fault found is fixed and its request added here; CI
 * sends each alone on both databases, and fails if the grammars have since changed what the seed and
 * index make (then find the request again, or a new one that finds the same fault).
 */
export const FOUND: readonly { seed: number; index: number; fingerprint: string; found: string }[] = [
  { seed: 1, index: 37, fingerprint: "0ad976002eea", found: "a join on the phoenix topic left unanswered" },
  { seed: 3, index: 1063, fingerprint: "786d16b1f2c6", found: "MFA enrolment with a sessionless token answered 500" },
  {
    seed: 1,
    index: 2298,
    fingerprint: "ebd946ecc16f",
    found: "a gallery search of 47 '-' broke PGlite (503) and was 500 on Postgres",
  },
  {
    seed: 11,
    index: 1568,
    fingerprint: "614a867d94cd",
    found: "delete-generation with a token of an unknown role answered 500",
  },
  {
    seed: 41,
    index: 47314,
    fingerprint: "159e686e2d64",
    found: "a storage move onto itself never answered and left the object's name locked for every later request",
  },
  {
    seed: 1,
    index: 950,
    fingerprint: "a4f6a9728464",
    found:
      "a 3000x3000 GIF reference held /health past 100 ms: 64 MB of pixels copied on the event loop (decision 161)",
  },
];
