// Composition only: providers, the shell with the account control, and the routes.
import { AccountMenu } from "../features/auth/account-menu";
import { AppShell } from "../features/shell/app-shell";
import { ErrorBoundary } from "./error-boundary";
import { Providers } from "./providers";
import { reportError } from "./report-error";
import { AppRoutes } from "./routes";

export function App() {
  return (
    <Providers>
      <ErrorBoundary onError={reportError}>
        <AppShell account={<AccountMenu />}>
          <AppRoutes onError={reportError} />
        </AppShell>
      </ErrorBoundary>
    </Providers>
  );
}
