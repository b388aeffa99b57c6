// /billing (signed in): the person's plan (issue 45): its status (active, cancels on a date, past due with
// its grace), the date it renews or ends, "Manage billing" (Stripe's billing portal: card, cancel, switch
// plan), the invoices, and the three plans, whose buttons open Stripe Checkout (or the portal for a person
// with a plan). The summary kept on this device shows offline, marked as last known; with no payment
// provider connected the buttons show the spec's notice (docs/spec.md §8). `?choose=<plan>` continues a
// plan button pressed before signing in. The plan list is handed in by the app (it belongs to marketing).
import { useEffect, useRef } from "react";
import { Link, useSearch } from "wouter";
import { DEFAULT_TIER, planNameFor, type Tier } from "#shared/vocabulary/tiers.ts";
import { choosePlan, manageBilling, type BillingSummary, type PaidPlan } from "../../api/billing";
import { useOnline } from "../../lib/use-online";
import { useSession } from "../../state/session-store";
import { useLimitsRecord } from "../../sync/use-limits-record";
import { PageHeader } from "../../ui/page-header";
import { PlanActionButton, PlanCard, followPlanChoice, type PlanCardPlan } from "../../ui/plan-card";
import { formatDate, isLive, statusText } from "./billing-text";
import { InvoiceList } from "./invoice-list";
import { useBillingSummary, type BillingSummaryView } from "./use-billing-summary";

export type BillingPlan = PlanCardPlan & { tier: Tier; checkout: PaidPlan | null };

const TONES = { success: "badge-success", warning: "badge-warning", error: "badge-error", neutral: "badge-ghost" };

/** Continues a plan button pressed before signing in (`?choose=creator`), once, then forgets it. */
function useContinueChoice(notice: string) {
  const search = useSearch();
  const online = useOnline();
  const started = useRef(false);
  useEffect(() => {
    const plan = new URLSearchParams(search).get("choose");
    if (started.current || !online || (plan !== "creator" && plan !== "pro")) return;
    started.current = true;
    history.replaceState(history.state, "", "/billing");
    void choosePlan(plan).then((choice) => followPlanChoice(choice, notice));
  }, [search, online, notice]);
}

function LastKnown({ view }: { view: BillingSummaryView }) {
  if (!view.kept || !view.lastKnown || view.loading) return null;
  return (
    <p role="status" className="text-sm text-base-content/80">
      Last known plan, as of {formatDate(view.kept.at)}{" "}
      {new Date(view.kept.at).toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit" })}
      {view.failure ? `: ${view.failure}` : ": you are offline."}
    </p>
  );
}

type CurrentPlanProps = {
  tier: Tier;
  plan: BillingPlan | undefined;
  summary: BillingSummary | null;
  view: BillingSummaryView;
  notice: string;
};

function CurrentPlan({ tier, plan, summary, view, notice }: CurrentPlanProps) {
  const userId = useSession().user?.id;
  const limits = useLimitsRecord(userId);
  const status = statusText(summary?.subscription ?? null);
  return (
    <section aria-labelledby="current-plan" className="card mb-8 border border-base-300 bg-base-100">
      <div className="card-body gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="current-plan" className="card-title text-lg">
            Current plan: {planNameFor(tier)}
          </h2>
          {summary && <span className={`badge ${TONES[status.tone]}`}>{status.label}</span>}
          {summary?.testMode && <span className="badge badge-warning">Test payments</span>}
        </div>
        {summary && status.detail && <p>{status.detail}</p>}
        <p className="text-base-content/80">
          {limits
            ? `${limits.dailyLimit.toLocaleString("en-US")} generations a day, ${Math.max(0, limits.remaining).toLocaleString("en-US")} left today.`
            : "Your daily allowance shows once this device has checked your limits."}{" "}
          <Link to="/dashboard" className="link">
            See today's usage
          </Link>
        </p>
        <LastKnown view={view} />
        {summary?.configured === false && <p className="text-sm text-base-content/80">{notice}</p>}
        {summary?.subscription && plan && (
          <div className="card-actions">
            <PlanActionButton
              plan={{ ...plan, popular: true }}
              notice={notice}
              label="Manage billing"
              choose={() => manageBilling()}
            />
          </div>
        )}
      </div>
    </section>
  );
}

function planAction(plan: BillingPlan, tier: Tier, notice: string, subscribed: boolean) {
  if (plan.checkout === null) {
    // The free plan is reached by cancelling a paid one, in the portal.
    if (tier === "free") return <p className="btn pointer-events-none btn-ghost">Your current plan</p>;
    if (!subscribed) return null;
    return <PlanActionButton plan={plan} notice={notice} label="Manage billing" choose={() => manageBilling()} />;
  }
  const checkout = plan.checkout;
  if (plan.tier === tier && subscribed) {
    return <PlanActionButton plan={plan} notice={notice} label="Manage billing" choose={() => manageBilling()} />;
  }
  // A person with a plan is answered with the portal (never a second checkout): switching happens there.
  return <PlanActionButton plan={plan} notice={notice} choose={() => choosePlan(checkout)} />;
}

export default function BillingPage({ plans, notice }: { plans: readonly BillingPlan[]; notice: string }) {
  const userId = useSession().user?.id;
  const view = useBillingSummary(userId);
  const limits = useLimitsRecord(userId);
  useContinueChoice(notice);
  const summary = view.kept?.summary ?? null;
  // The limits are read every 30 s and at once on a change of plan; the summary when this page opens.
  const tier = limits?.tier ?? summary?.tier ?? DEFAULT_TIER;
  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader title="Billing" lead="Your plan, its invoices and the plans on offer." />
      <CurrentPlan
        tier={tier}
        plan={plans.find((p) => p.tier === tier)}
        summary={summary}
        view={view}
        notice={notice}
      />
      <section aria-labelledby="invoices-title" className="mb-10">
        <h2 id="invoices-title" className="mb-3 text-xl font-bold">
          Invoices
        </h2>
        <InvoiceList invoices={summary?.invoices ?? []} />
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
                  plan.popular && <span className="badge badge-ghost">Most popular</span>
                )
              }
            >
              {planAction(plan, tier, notice, isLive(summary?.subscription ?? null))}
            </PlanCard>
          );
        })}
      </ul>
    </div>
  );
}
