// Decides whether to show the onboarding dialog: once, about a second after the first load, unless it
// was completed before, in this browser (docs/spec.md §4's flag) or, for the person signed in, on any
// device (kept with the account: account-flag.ts). The dialog's code loads only then, so visitors who
// finished it never fetch it.
import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation } from "wouter";
import { useSession } from "../../state/session-store";
import { completedWithAccount, keepCompletionWithAccount } from "./account-flag";
import {
  ONBOARDING_DELAY_MS,
  isOnboardingCompleted,
  markOnboardingCompleted,
  shouldOfferOnboarding,
} from "./onboarding-storage";

const OnboardingDialog = lazy(() => import("./onboarding-dialog"));

export function OnboardingGate() {
  const [location] = useLocation();
  const [open, setOpen] = useState(false);
  const [firstPath] = useState(location);
  const session = useSession();
  const userId = session.verified ? (session.user?.id ?? null) : null;

  useEffect(() => {
    if (!shouldOfferOnboarding(window.localStorage, firstPath)) return;
    let cancelled = false;
    const timer = window.setTimeout(() => {
      void completedWithAccount().then((done) => {
        if (cancelled) return;
        if (done) markOnboardingCompleted(window.localStorage);
        else setOpen(true);
      });
    }, ONBOARDING_DELAY_MS);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [firstPath]);

  // Completed in this browser (perhaps before signing up): the account keeps it too.
  useEffect(() => {
    if (userId && isOnboardingCompleted(window.localStorage)) void keepCompletionWithAccount();
  }, [userId]);

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <OnboardingDialog onClose={() => setOpen(false)} />
    </Suspense>
  );
}
