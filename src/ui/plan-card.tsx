// One plan's card (docs/spec.md §9), as the home page's pricing section, /pricing and /billing show it: name,
// badge, price, what it gives and one action. Each page decides the badge and the action (a sign-up
// link, a plan button); the card's markup lives here once, and so does the plan button's behaviour.
import { useState, type ReactNode } from "react";
import { useOnline } from "../lib/use-online";
import { showToast } from "../state/toasts";
import { PageIcon } from "./page-icons";
import { Spinner } from "./spinner";

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

/** No payment provider is connected: a paid plan's button only says so (docs/spec.md §8) and charges nothing. */
export function showPlanNotice(notice: string): void {
  showToast({ tone: "info", title: notice, message: "No card was charged and your plan did not change." });
}

/**
 * What pressing a plan button came to: leave for a payment page (Stripe Checkout or its billing portal),
 * the spec's notice (no payment provider), a failure to tell (nothing changed), or nothing more to do here
 * (the page went elsewhere itself, such as to sign in first).
 */
export type PlanChoice =
  | { kind: "redirect"; url: string }
  | { kind: "notice" }
  | { kind: "failed"; title: string; message: string }
  | { kind: "done" };

/** Leaves for a payment page; a seam for tests. */
export const leavePage = { to: (url: string) => window.location.assign(url) };

/** Does what a plan choice says; answers whether the page is leaving (for a payment page). */
export function followPlanChoice(choice: PlanChoice, notice: string): boolean {
  if (choice.kind === "redirect") {
    leavePage.to(choice.url);
    return true;
  }
  if (choice.kind === "notice") showPlanNotice(notice);
  else if (choice.kind === "failed") showToast({ tone: "error", title: choice.title, message: choice.message });
  return false;
}

/**
 * A plan's button: `choose` asks the server (a checkout, or the portal for a person who has a plan) and the
 * button follows its answer. Offline it says it needs a connection and does nothing; while the answer is
 * on its way it is busy, and a failure is a toast with the server's sentence (nothing changed).
 */
export function PlanActionButton(props: {
  plan: PlanCardPlan;
  notice: string;
  choose: () => Promise<PlanChoice>;
  /** The button's words when they are not the plan's own (a plan the person has: "Manage billing"). */
  label?: string;
}) {
  const { plan, notice, choose } = props;
  const online = useOnline();
  const [busy, setBusy] = useState(false);
  const words = props.label ?? plan.cta;
  const press = async () => {
    setBusy(true);
    const choice = await choose().catch((): PlanChoice => ({
      kind: "failed",
      title: "Something went wrong",
      message: "Nothing changed. Try again.",
    }));
    // Stays busy while the page goes.
    if (!followPlanChoice(choice, notice)) setBusy(false);
  };
  return (
    <button
      type="button"
      className={planActionClass(plan)}
      aria-label={
        online
          ? `${words}: ${plan.name} plan, ${formatPrice(plan.price)} a ${plan.period}`
          : `Needs a connection: ${plan.name} plan`
      }
      disabled={!online || busy}
      aria-busy={busy || undefined}
      onClick={() => void press()}
    >
      {busy && <Spinner />}
      {online ? words : "Needs a connection"}
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
              <PageIcon name="check" className="mt-0.5 size-4 shrink-0 text-success" />
              <span>{f}</span>
            </li>
          ))}
        </ul>
        {props.children}
      </div>
    </li>
  );
}
