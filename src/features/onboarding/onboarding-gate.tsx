// Decides whether to show the onboarding dialog: once, about a second after the first load, unless it
// was completed before. The dialog's code loads only then, so visitors who finished it never fetch it.
import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation } from "wouter";
import { ONBOARDING_DELAY_MS, shouldOfferOnboarding } from "./onboarding-storage";

const OnboardingDialog = lazy(() => import("./onboarding-dialog"));

export function OnboardingGate() {
  const [location] = useLocation();
  const [open, setOpen] = useState(false);
  const [firstPath] = useState(location);

  useEffect(() => {
    if (!shouldOfferOnboarding(window.localStorage, firstPath)) return;
    const timer = window.setTimeout(() => setOpen(true), ONBOARDING_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [firstPath]);

  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <OnboardingDialog onClose={() => setOpen(false)} />
    </Suspense>
  );
}
