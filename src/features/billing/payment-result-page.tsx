// /payment-success and /payment-canceled: where Stripe Checkout returns. The success page runs the billing
// function's sync with the checkout's session id (it reads the subscription from Stripe and writes it), so
// it shows the new plan whatever became of the webhook (issue 45); the canceled page says nothing was
// charged. With no payment provider connected, the success page says no payment was taken.
import { useEffect, useState, type ReactNode } from "react";
import { Link, useSearch } from "wouter";
import { planNameFor } from "#shared/vocabulary/tiers.ts";
import { syncBilling, type BillingSummary } from "../../api/billing";
import { keepBillingSummary } from "../../db/billing-summary";
import { authRedirectPath } from "../../lib/auth-redirect";
import { useHydrated } from "../../lib/use-hydrated";
import { isOnline } from "../../lib/online";
import { useOnline } from "../../lib/use-online";
import { useSession } from "../../state/session-store";
import { Icon } from "../../ui/icons";
import { Spinner } from "../../ui/spinner";
import { statusText } from "./billing-text";

function PaymentResult(props: { title: string; children: ReactNode; busy?: boolean; actions?: ReactNode }) {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center py-10 text-center">
      <span className="grid size-14 place-items-center rounded-full bg-primary/10 text-primary">
        {props.busy ? <Spinner size="md" /> : <Icon name="card" className="size-7" />}
      </span>
      <h1 className="mt-5 text-2xl font-bold sm:text-3xl">{props.title}</h1>
      <div className="mt-3 flex flex-col gap-2 text-base-content/80" aria-live="polite">
        {props.children}
      </div>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {props.actions ?? (
          <>
            <Link to="/billing" className="btn btn-primary">
              Go to billing
            </Link>
            <Link to="/generate" className="btn btn-outline">
              Start creating
            </Link>
          </>
        )}
      </div>
    </div>
  );
}

type Sync = { state: "syncing" } | { state: "done"; summary: BillingSummary } | { state: "failed"; message: string };

/** Runs the sync once the person is known (and online); `again` runs it once more. */
function useSync(userId: string | undefined, sessionId: string | null) {
  const online = useOnline();
  const [sync, setSync] = useState<Sync>({ state: "syncing" });
  const [round, setRound] = useState(0);
  useEffect(() => {
    // A prerendered page hydrates as online (the server's snapshot): the browser's own word decides.
    if (!userId || !online || !isOnline()) return;
    let live = true;
    setSync({ state: "syncing" });
    void syncBilling(sessionId).then(async (result) => {
      if (result.ok) await keepBillingSummary(userId, result.value);
      if (live)
        setSync(
          result.ok ? { state: "done", summary: result.value } : { state: "failed", message: result.error.message },
        );
    });
    return () => {
      live = false;
    };
  }, [userId, sessionId, online, round]);
  return { sync, online, again: () => setRound((r) => r + 1) };
}

export function PaymentSuccessPage() {
  const session = useSession();
  const search = useSearch();
  const sessionId = new URLSearchParams(search).get("session_id");
  const userId = session.user?.id;
  const { sync, online, again } = useSync(userId, sessionId);
  // The prerendered page (no session known yet) is the confirming one: hydration draws the same first.
  const hydrated = useHydrated();
  if (hydrated && session.status === "signed-out") {
    const signIn = authRedirectPath({ pathname: "/payment-success", search });
    return (
      <PaymentResult
        title="Sign In to See Your Plan"
        actions={
          <Link to={signIn} className="btn btn-primary">
            Sign in
          </Link>
        }
      >
        <p>Your payment is confirmed to the account that paid. Sign in to see your plan.</p>
      </PaymentResult>
    );
  }
  if (sync.state === "done" && !sync.summary.configured) {
    return (
      <PaymentResult title="No Payment Was Taken">
        <p>Card payments are not connected here, so no card was charged and your plan has not changed.</p>
      </PaymentResult>
    );
  }
  if (sync.state === "done") return <Confirmed summary={sync.summary} />;
  if (hydrated && (sync.state === "failed" || !online)) {
    return (
      <PaymentResult
        title="Confirming Your Payment"
        actions={
          <button type="button" className="btn btn-primary" disabled={!online} onClick={again}>
            {online ? "Check again" : "Needs a connection"}
          </button>
        }
      >
        <p>{online ? sync.state === "failed" && sync.message : "You are offline."}</p>
        <p>
          If you paid, your plan changes as soon as the payment is confirmed, on every device: you need not pay again.
        </p>
      </PaymentResult>
    );
  }
  return (
    <PaymentResult title="Confirming Your Payment" busy>
      <p>Checking your subscription with the payment provider…</p>
    </PaymentResult>
  );
}

function Confirmed({ summary }: { summary: BillingSummary }) {
  const status = statusText(summary.subscription);
  const paid = summary.tier !== "free";
  return (
    <PaymentResult title={paid ? "Payment Successful" : "No Plan Yet"}>
      <p className="text-lg text-base-content">
        Your plan: <strong>{planNameFor(summary.tier)}</strong>
        {summary.testMode && <span className="badge badge-warning ml-2 align-middle">Test payments</span>}
      </p>
      {paid ? (
        <p>{status.detail} Your new daily allowance applies now, on every device.</p>
      ) : (
        <p>
          No subscription was found for this checkout. If you paid, it shows here within a minute; check again soon.
        </p>
      )}
    </PaymentResult>
  );
}

export function PaymentCanceledPage() {
  return (
    <PaymentResult
      title="Payment Canceled"
      actions={
        <>
          <Link to="/pricing" className="btn btn-primary">
            View plans
          </Link>
          <Link to="/" className="btn btn-outline">
            Go Home
          </Link>
        </>
      }
    >
      <p>You left the checkout before paying: nothing was charged and your plan has not changed.</p>
    </PaymentResult>
  );
}
