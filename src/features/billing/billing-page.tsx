// /billing (signed in): the person's current plan (from the last known limits on this device) and
// the three plans of docs/spec.md §9. Subscriptions are not functional: every plan button shows the spec's
// notice (§8) and makes no call. The plan list is handed in by the app (it belongs to marketing).
import { useLiveQuery } from "dexie-react-hooks";
import { Link } from "wouter";
import { DEFAULT_TIER, planNameFor } from "#shared/vocabulary/tiers.ts";
import { getLimits } from "../../db/queries";
import { useSession } from "../../state/session-store";
import { PageHeader } from "../../ui/page-header";
import { PlanCard, PlanNoticeButton, type PlanCardPlan } from "../../ui/plan-card";

export type BillingPlan = PlanCardPlan & { tier: string };

export default function BillingPage({ plans, notice }: { plans: readonly BillingPlan[]; notice: string }) {
  const userId = useSession().user?.id;
  const limits = useLiveQuery(() => (userId ? getLimits(userId) : undefined), [userId]);
  const tier = limits?.tier ?? DEFAULT_TIER;

  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader title="Billing" lead="Your plan and the plans on offer. Paid subscriptions are not available yet." />
      <section aria-labelledby="current-plan" className="card mb-8 border border-base-300 bg-base-100">
        <div className="card-body gap-2">
          <h2 id="current-plan" className="card-title text-lg">
            Current plan: {planNameFor(tier)}
          </h2>
          <p className="text-base-content/80">
            {limits
              ? `${limits.dailyLimit} generations a day, ${Math.max(0, limits.remaining)} left today.`
              : "Your daily allowance shows once this device has checked your limits."}
          </p>
          <p className="text-sm text-base-content/80">
            No invoices yet: nothing has been charged.{" "}
            <Link to="/dashboard" className="link">
              See today's usage
            </Link>
          </p>
        </div>
      </section>
      <h2 className="mb-4 text-xl font-bold">Plans</h2>
      <ul className="grid gap-4 md:grid-cols-3">
        {plans.map((plan) => {
          const current = plan.tier === tier;
          return (
            <PlanCard
              key={plan.name}
              plan={plan}
              highlighted={current}
              badge={
                current ? (
                  <span className="badge badge-primary">Your plan</span>
                ) : (
                  plan.popular && <span className="badge badge-outline badge-primary">Most popular</span>
                )
              }
            >
              <PlanNoticeButton plan={plan} notice={notice} />
            </PlanCard>
          );
        })}
      </ul>
      <p className="mt-6 text-sm text-base-content/80">{notice}</p>
    </div>
  );
}
