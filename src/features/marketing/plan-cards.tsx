// The plan cards shared by the home page's pricing section and /pricing. Every button shows the
// subscription notice and makes no call (spec §2, §8).
import { Icon } from "../../ui/icons";
import { showToast } from "../../state/toasts";
import { PLANS, SUBSCRIPTION_NOTICE, formatPrice } from "./plans";

export function showSubscriptionNotice(): void {
  showToast({ tone: "info", title: SUBSCRIPTION_NOTICE, message: "No card was charged and your plan did not change." });
}

export function PlanCards({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <ul className="grid gap-4 md:grid-cols-3">
      {PLANS.map((plan) => (
        <li
          key={plan.name}
          className={`card border bg-base-100 ${plan.popular ? "border-primary shadow-lg" : "border-base-300"}`}
        >
          <div className="card-body gap-4">
            <div className="flex items-center justify-between gap-2">
              <Heading className="card-title">{plan.name}</Heading>
              {plan.popular && <span className="badge badge-primary">Most popular</span>}
            </div>
            <p>
              <span className="text-4xl font-bold">{formatPrice(plan.price)}</span>
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
              aria-label={`${plan.cta}: ${plan.name} plan, ${formatPrice(plan.price)} a ${plan.period}`}
              onClick={showSubscriptionNotice}
            >
              {plan.cta}
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}
