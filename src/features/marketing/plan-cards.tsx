// The plan cards shared by the home page's pricing section and /pricing (each card is ui/plan-card.tsx,
// as /billing draws it). A paid plan's button shows the subscription notice and makes no call (docs/spec.md §2,
// §8); the free plan's does what it offers: a visitor goes to sign-up, a signed-in person (who already
// has it) to the generator.
import { Link } from "wouter";
import { useHydrated } from "../../lib/use-hydrated";
import { useSession } from "../../state/session-store";
import { PlanCard, PlanNoticeButton, planActionClass, planActionLabel } from "../../ui/plan-card";
import { PLANS, SUBSCRIPTION_NOTICE } from "./plans";

export function PlanCards({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const hydrated = useHydrated();
  const signedIn = useSession().status === "signed-in" && hydrated;
  // Three across only where the content column itself is wide enough (a container query): at 768 px the
  // sidebar leaves too little room, and a card's price would stick out of it.
  return (
    <div className="@container">
      <ul className="grid gap-4 @3xl:grid-cols-3">
        {PLANS.map((plan) => (
          <PlanCard
            key={plan.name}
            plan={plan}
            headingLevel={headingLevel}
            highlighted={plan.popular}
            badge={plan.popular && <span className="badge badge-primary">Most popular</span>}
          >
            {plan.price === 0 ? (
              <Link
                to={signedIn ? "/generate" : "/auth?mode=sign-up"}
                className={planActionClass(plan)}
                aria-label={planActionLabel(plan)}
              >
                {plan.cta}
              </Link>
            ) : (
              <PlanNoticeButton plan={plan} notice={SUBSCRIPTION_NOTICE} />
            )}
          </PlanCard>
        ))}
      </ul>
    </div>
  );
}
