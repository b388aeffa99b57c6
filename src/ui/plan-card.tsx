// One subscription plan as a card: name, badge, price per period, features and its button. The plan
// list and what the button does belong to the page using it (the public pricing and /billing).
import type { ReactNode } from "react";
import { Icon } from "./icons";

export type PlanCardData = {
  name: string;
  price: number;
  period: string;
  features: readonly string[];
  cta: string;
  popular: boolean;
};

/** "$0" for free, else dollars and cents. */
export function formatPlanPrice(price: number): string {
  return price === 0 ? "$0" : `$${price.toFixed(2)}`;
}

type Props = {
  plan: PlanCardData;
  heading: "h2" | "h3";
  /** Drawn with a primary border and shadow (the popular plan, or the person's own). */
  highlighted: boolean;
  badge: ReactNode;
  onChoose: () => void;
};

export function PlanCard({ plan, heading: Heading, highlighted, badge, onChoose }: Props) {
  const price = formatPlanPrice(plan.price);
  return (
    <li className={`card border bg-base-100 ${highlighted ? "border-primary shadow-lg" : "border-base-300"}`}>
      <div className="card-body gap-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Heading className="card-title">{plan.name}</Heading>
          {badge}
        </div>
        <p>
          <span className="text-4xl font-bold">{price}</span>
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
          aria-label={`${plan.cta}: ${plan.name} plan, ${price} a ${plan.period}`}
          onClick={onChoose}
        >
          {plan.cta}
        </button>
      </div>
    </li>
  );
}
