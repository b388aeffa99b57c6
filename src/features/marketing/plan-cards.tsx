// The plan cards shared by the home page's pricing section and /pricing (each card is ui/plan-card.tsx,
// as /billing draws it). The free plan's button does what it offers: a visitor goes to sign-up, a signed-in
// person (who already has it) to the generator. A paid plan's button asks the server for Stripe Checkout
// (or the billing portal, for a person who has a plan) and goes there; with no payment provider connected
// it shows the spec's notice (docs/spec.md §8). A visitor signs in first and then continues on /billing,
// which starts the same checkout. The billing client loads only when a paid plan is pressed, so a visitor
// who only looks never loads supabase-js.
import { Link, useLocation } from "wouter";
import { authRedirectPath } from "../../lib/auth-redirect";
import { useHydrated } from "../../lib/use-hydrated";
import { useSession } from "../../state/session-store";
import { PlanActionButton, PlanCard, planActionClass, planActionLabel, type PlanChoice } from "../../ui/plan-card";
import { PLANS, SUBSCRIPTION_NOTICE } from "./plans";

export function PlanCards({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const hydrated = useHydrated();
  const signedIn = useSession().status === "signed-in" && hydrated;
  const [, navigate] = useLocation();
  const choose = async (plan: "creator" | "pro"): Promise<PlanChoice> => {
    if (!signedIn) {
      navigate(authRedirectPath({ pathname: "/billing", search: `?choose=${plan}` }));
      return { kind: "done" };
    }
    const { choosePlan } = await import("../../api/billing");
    return choosePlan(plan);
  };
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
            {plan.checkout === null ? (
              <Link
                to={signedIn ? "/generate" : "/auth?mode=sign-up"}
                className={planActionClass(plan)}
                aria-label={planActionLabel(plan)}
              >
                {plan.cta}
              </Link>
            ) : (
              <PlanActionButton plan={plan} notice={SUBSCRIPTION_NOTICE} choose={() => choose(plan.checkout!)} />
            )}
          </PlanCard>
        ))}
      </ul>
    </div>
  );
}
