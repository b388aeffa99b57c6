// /billing (signed in): the person's current plan (from the last known limits on this device) and
// the three plans of spec §9. Subscriptions are not functional: every plan button shows the spec's
// notice (§8) and makes no call. The plan list is handed in by the app (it belongs to marketing).
import { useLiveQuery } from "dexie-react-hooks";
import { Link } from "wouter";
import { getLimits } from "../../db/queries";
import { planNameFor } from "../../lib/tier-names";
import { useSession } from "../../state/session-store";
import { showToast } from "../../state/toasts";
import { Icon } from "../../ui/icons";
import { PageHeader } from "../../ui/page-header";

export type BillingPlan = {
  name: string;
  price: number;
  period: string;
  features: readonly string[];
  cta: string;
  popular: boolean;
  tier: string;
};

const price = (p: number) => (p === 0 ? "$0" : `$${p.toFixed(2)}`);

export default function BillingPage({ plans, notice }: { plans: readonly BillingPlan[]; notice: string }) {
  const userId = useSession().user?.id;
  const limits = useLiveQuery(() => (userId ? getLimits(userId) : undefined), [userId]);
  const tier = limits?.tier ?? "free";
  const showNotice = () =>
    showToast({ tone: "info", title: notice, message: "No card was charged and your plan did not change." });

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
            <li
              key={plan.name}
              className={`card border bg-base-100 ${current ? "border-primary shadow-lg" : "border-base-300"}`}
            >
              <div className="card-body gap-4">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="card-title">{plan.name}</h3>
                  {current ? (
                    <span className="badge badge-primary">Your plan</span>
                  ) : (
                    plan.popular && <span className="badge badge-outline badge-primary">Most popular</span>
                  )}
                </div>
                <p>
                  <span className="text-4xl font-bold">{price(plan.price)}</span>
                  <span className="text-base-content/80">/{plan.period}</span>
                </p>
                <ul className="flex flex-1 flex-col gap-2 text-sm">
                  {plan.features.map((f) => (
                    <li key={f} className="flex items-start gap-2">
                      <Icon name="check" className="mt-0.5 size-4 shrink-0 text-success" />
                      <span>{f}</span>
                    </li>
                  ))}
                </ul>
                <button
                  type="button"
                  className={`btn ${plan.popular ? "btn-primary" : "btn-outline"}`}
                  aria-label={`${plan.cta}: ${plan.name} plan, ${price(plan.price)} a ${plan.period}`}
                  onClick={showNotice}
                >
                  {plan.cta}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <p className="mt-6 text-sm text-base-content/80">{notice}</p>
    </div>
  );
}
