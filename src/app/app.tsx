// Composition only: providers, the shell with the account and install controls, the routes, and the
// notices that float above every page (a waiting update, the onboarding dialog).
import { AccountMenu } from "../features/auth/account-menu";
import { OnboardingGate } from "../features/onboarding/onboarding-gate";
import { InstallButton } from "../features/pwa/install-button";
import { UpdatePrompt } from "../features/pwa/update-prompt";
import { AppShell } from "../features/shell/app-shell";
import { ErrorBoundary } from "./error-boundary";
import { PrerenderHandoff } from "./prerender-handoff";
import { Providers } from "./providers";
import { reportError } from "./report-error";
import { AppRoutes } from "./routes";

/** `onReady` runs after the first commit (after hydration of a prerendered page). */
export function App({ onReady }: { onReady?: () => void }) {
  return (
    <Providers>
      <PrerenderHandoff onReady={onReady} />
      <ErrorBoundary onError={reportError}>
        <AppShell account={<AccountMenu />} actions={<InstallButton />}>
          <AppRoutes onError={reportError} />
        </AppShell>
        <UpdatePrompt />
        <OnboardingGate />
      </ErrorBoundary>
    </Providers>
  );
}
