// The plan cards shared by the home page's pricing section and /pricing. Every button shows the
// subscription notice and makes no call (spec §2, §8).
import { showToast } from "../../state/toasts";
import { PlanCard } from "../../ui/plan-card";
import { PLANS, SUBSCRIPTION_NOTICE } from "./plans";

export function showSubscriptionNotice(): void {
  showToast({ tone: "info", title: SUBSCRIPTION_NOTICE, message: "No card was charged and your plan did not change." });
}

export function PlanCards({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  return (
    <ul className="grid gap-4 md:grid-cols-3">
      {PLANS.map((plan) => (
        <PlanCard
          key={plan.name}
          plan={plan}
          heading={headingLevel === 2 ? "h2" : "h3"}
          highlighted={plan.popular}
          badge={plan.popular && <span className="badge badge-primary">Most popular</span>}
          onChoose={showSubscriptionNotice}
        />
      ))}
    </ul>
  );
}
