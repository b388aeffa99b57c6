// /pricing: the three plans (docs/spec.md §9), what each includes, how the daily quota works, and how paying
// works (Stripe Checkout; with no payment provider connected every plan button shows the spec's notice).
import type { ReactNode } from "react";
import { Link } from "wouter";
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { LIMIT_ALERT_AT, TIER_DAILY_QUOTA } from "#shared/vocabulary/tiers.ts";
import { Icon } from "../../ui/icons";
import { PageHeader } from "../../ui/page-header";
import { FAQ } from "./faq-entries";
import { FaqItem } from "./faq-item";
import { PlanCards } from "./plan-cards";
import { PLANS, SUBSCRIPTION_NOTICE, formatPrice } from "./plans";

// Prices are the plans'; daily images are the real tier quotas (the vocabulary's, which
// public.tier_quotas repeats). Columns follow PLANS: Free, Creator, Pro.
const COMPARISON: string[][] = [
  ["Price", ...PLANS.map((p) => `${formatPrice(p.price)}/${p.period}`)],
  ["Images per day", ...PLANS.map((p) => TIER_DAILY_QUOTA[p.tier].toLocaleString("en-US"))],
  ["Daily reset", "Your local midnight", "Your local midnight", "Your local midnight"],
  ["Render queue (built-in engine, when busy)", "After paid plans", "Before Free", "First"],
  ["Custom styles", "No", "No", "Yes"],
  ["Styles and tools", ...PLANS.map(() => `All ${STYLE_IDS.length} styles, batch generation, community gallery`)],
  ["Payment", "None, no card", "Card, monthly", "Card, monthly"],
];

const PLAN_QUESTIONS = ["buy-plan", "daily-limit", "is-it-free"];

/** "$19.99/month" may wrap after its slash in a narrow column, never inside "month". */
function breakAfterSlash(text: string): ReactNode {
  const [head, ...rest] = text.split("/");
  return rest.length === 0 ? text : [head, ...rest.flatMap((part, i) => ["/", <wbr key={i} />, part])];
}

export default function PricingPage() {
  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader
        title="Pricing"
        lead="Start free with five images a day. Creator and Pro raise the daily limit and start your renders first when the built-in engine is busy; Pro adds custom styles."
      />

      <section aria-label="Plans">
        <PlanCards headingLevel={2} />
      </section>

      <div role="note" className="alert alert-info alert-soft mt-6 text-base-content">
        <Icon name="alert" className="size-5 shrink-0" />
        <p>
          <span className="font-semibold">Paying is by card through Stripe.</span> A plan renews monthly until you
          cancel it in Manage billing on your billing page, and stays until the end of the month paid for. Where the
          operator has not connected card payments, the Creator and Pro buttons only say <q>{SUBSCRIPTION_NOTICE}</q>{" "}
          and nothing is charged.
        </p>
      </div>

      <section aria-labelledby="compare-title" className="mt-14">
        <h2 id="compare-title" className="text-2xl font-bold">
          Compare the plans
        </h2>
        {/* Fixed, equal columns whose text wraps: on a phone all three plans stay in view, none scrolled off. */}
        <div className="mt-4 overflow-x-auto rounded-box border border-base-300">
          <table className="table table-fixed table-xs sm:table-md">
            <thead>
              <tr>
                <th scope="col">
                  <span className="sr-only">Feature</span>
                </th>
                {PLANS.map((p) => (
                  <th key={p.name} scope="col">
                    {p.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {COMPARISON.map(([label, ...cells]) => (
                <tr key={label}>
                  <th scope="row" className="font-medium">
                    {label}
                  </th>
                  {cells.map((c, i) => (
                    <td key={i}>{breakAfterSlash(c)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="quota-title" className="mt-14 grid gap-6 md:grid-cols-2">
        <div>
          <h2 id="quota-title" className="text-2xl font-bold">
            How the daily limit works
          </h2>
          <ul className="mt-4 flex flex-col gap-3 text-base-content/85">
            <li>Each image you generate uses one of the day's images; batch mode uses one per image.</li>
            <li>The count resets at midnight in the time zone set in your account.</li>
            <li>The server keeps the count, so it is the same on every device you sign in on.</li>
            <li>A generation that fails is released and never counts.</li>
            <li>When {LIMIT_ALERT_AT} or fewer remain, the generator shows a countdown to your reset.</li>
          </ul>
        </div>
        <div className="rounded-box bg-base-200 p-6">
          <h2 className="text-lg font-semibold">Just want to try it?</h2>
          <p className="mt-2 text-base-content/85">
            The free plan needs only an e-mail address. {TIER_DAILY_QUOTA.free} images a day is enough to learn the
            styles and settings.
          </p>
          <div className="mt-4 flex flex-wrap gap-2">
            <Link to="/auth?mode=sign-up" className="btn btn-primary btn-sm">
              Create a free account
            </Link>
            <Link to="/free-ai-image-generator" className="btn btn-outline btn-sm">
              What is free
            </Link>
          </div>
        </div>
      </section>

      <section aria-labelledby="pricing-faq" className="mt-14">
        <h2 id="pricing-faq" className="text-2xl font-bold">
          Plan questions
        </h2>
        <div className="mt-4 flex flex-col gap-2">
          {PLAN_QUESTIONS.map((id) => {
            const entry = FAQ.find((e) => e.id === id)!;
            return <FaqItem key={id} entry={entry} />;
          })}
        </div>
      </section>
    </div>
  );
}
