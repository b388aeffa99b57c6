// One plan's card (docs/spec.md §9), as the home page's pricing section, /pricing and /billing show it: name,
// badge, price, what it gives and one action. Each page decides the badge and the action (a sign-up
// link, the subscription notice); the card's markup lives here once.
import type { ReactNode } from "react";
import { showToast } from "../state/toasts";
import { Icon } from "./icons";

export type PlanCardPlan = {
  name: string;
  /** Dollars per period; 0 is the free plan. */
  price: number;
  period: string;
  features: readonly string[];
  cta: string;
  popular: boolean;
};

export function formatPrice(price: number): string {
  return price === 0 ? "$0" : `$${price.toFixed(2)}`;
}

/** What a plan's action says to assistive technology: the button's words and the plan they buy. */
export function planActionLabel(plan: PlanCardPlan): string {
  return `${plan.cta}: ${plan.name} plan, ${formatPrice(plan.price)} a ${plan.period}`;
}

export function planActionClass(plan: PlanCardPlan): string {
  return `btn ${plan.popular ? "btn-primary" : "btn-outline"}`;
}

/** Subscriptions are not functional: a paid plan's button only says so (docs/spec.md §8) and charges nothing. */
function showPlanNotice(notice: string): void {
  showToast({ tone: "info", title: notice, message: "No card was charged and your plan did not change." });
}

/** A paid plan's action: a button that shows the notice and makes no call. */
export function PlanNoticeButton({ plan, notice }: { plan: PlanCardPlan; notice: string }) {
  return (
    <button
      type="button"
      className={planActionClass(plan)}
      aria-label={planActionLabel(plan)}
      onClick={() => showPlanNotice(notice)}
    >
      {plan.cta}
    </button>
  );
}

export function PlanCard(props: {
  plan: PlanCardPlan;
  headingLevel?: 2 | 3;
  /** Drawn with the primary border and a shadow. */
  highlighted: boolean;
  badge?: ReactNode;
  /** The plan's one action (a link or a button). */
  children: ReactNode;
}) {
  const { plan } = props;
  const Heading = props.headingLevel === 2 ? "h2" : "h3";
  return (
    <li className={`card border bg-base-100 ${props.highlighted ? "border-primary shadow-lg" : "border-base-300"}`}>
      <div className="card-body gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Heading className="card-title">{plan.name}</Heading>
          {props.badge}
        </div>
        {/* In a narrow card (three across at 768 px) "/month" wraps under the price, not out of the card. */}
        <p className="flex flex-wrap items-baseline">
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
        {props.children}
      </div>
    </li>
  );
}
