// /payment-success and /payment-canceled: where a card checkout would return. Subscriptions are not yet
// functional (docs/spec.md §8) and no checkout exists, so neither page claims a payment: the success page
// says that none was taken (docs/decisions/143-what-the-public-pages-say.md).
import { Link } from "wouter";
import { Icon } from "../../ui/icons";

function PaymentResult({ title, body }: { title: string; body: string }) {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center py-10 text-center">
      <span className="grid size-14 place-items-center rounded-full bg-primary/10 text-primary">
        <Icon name="card" className="size-7" />
      </span>
      <h1 className="mt-5 text-2xl font-bold sm:text-3xl">{title}</h1>
      <p className="mt-3 text-base-content/80">{body}</p>
      <p className="mt-2 text-sm text-base-content/80">
        Subscriptions are not yet functional: no card was charged and your plan has not changed.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/pricing" className="btn btn-primary">
          View plans
        </Link>
        <Link to="/" className="btn btn-outline">
          Go Home
        </Link>
      </div>
    </div>
  );
}

export function PaymentSuccessPage() {
  return (
    <PaymentResult
      title="No Payment Was Taken"
      body="This is where a card checkout would return after a payment, but card payments are not connected here."
    />
  );
}

export function PaymentCanceledPage() {
  return (
    <PaymentResult
      title="Payment Canceled"
      body="This is where a card checkout would return if you left it before paying; card payments are not connected here."
    />
  );
}
