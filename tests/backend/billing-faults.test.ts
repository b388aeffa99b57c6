// The payments pipeline in the seeded fault harness (tests/faults/billing/): fixed seeds of a person's moves
// through checkout and the portal under dropped, duplicated, reordered and delayed webhook events, each
// ending with no violation of decision 148's invariants. `npm run bench billing-faults` runs many more.
import { expect, it } from "vitest";
import { describeOnBackends } from "../support/backend-suite.ts";
import { runBillingSchedule } from "../faults/billing/harness.ts";

/** The seeds CI runs; a seed that once found a fault stays here with its reason. */
export const BILLING_CI_SEEDS = [1, 2, 3, 4, 5, 6];

describeOnBackends(
  "the payments pipeline under seeded faults on $title",
  { prefix: "pc_billing_faults" },
  (b, { skip }) => {
    for (const seed of BILLING_CI_SEEDS) {
      it.skipIf(skip)(
        `seed ${seed}: one customer, one live subscription, and a tier a fresh sync leaves as it is`,
        async () => {
          const { violations } = await runBillingSchedule(b, seed);
          expect(violations).toEqual([]);
        },
        120_000,
      );
    }

    it.skipIf(skip)(
      "two plans opened in two tabs before either is paid end as one subscription",
      async () => {
        const steps = [{ kind: "twoPlansTwoTabs" }, { kind: "advanceDays", days: 31 }] as const;
        const { violations } = await runBillingSchedule(b, 0, [...steps]);
        expect(violations).toEqual([]);
      },
      120_000,
    );
  },
);
