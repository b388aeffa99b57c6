// Two ways a screen can fail. A page whose code could not be loaded (a lost connection, a stale
// deploy) gets the router error screen: retrying in place cannot help, so it offers a reload. Any
// other render error gets 'Something went wrong' with Try Again (re-render) and Refresh Page.
import { Component, type ErrorInfo, type ReactNode } from "react";
import { Icon } from "../ui/icons";

export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|importing a module script failed|error loading dynamically|chunkloaderror|loading chunk .* failed/i.test(
    text,
  );
}

type Props = {
  children: ReactNode;
  /** Told about every caught error (analytics); must not throw. */
  onError?: (error: unknown, info: ErrorInfo) => void;
  /** Changing this value clears a caught error (the route changed). */
  resetKey?: string;
};

type State = { error: unknown; hasError: boolean; resetKey?: string };

export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, hasError: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, hasError: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { resetKey: props.resetKey, hasError: false, error: null };
    return null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  reset = () => this.setState({ hasError: false, error: null });

  render() {
    if (!this.state.hasError) return this.props.children;
    return isChunkLoadError(this.state.error) ? (
      <RouterErrorScreen error={this.state.error} />
    ) : (
      <SomethingWentWrong onRetry={this.reset} />
    );
  }
}

function Panel({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col items-center px-4 py-16 text-center" role="alert">
      <div className="mb-5 grid size-14 place-items-center rounded-full bg-error/15 text-error">
        <Icon name="alert" className="size-7" />
      </div>
      {children}
    </div>
  );
}

export function SomethingWentWrong({ onRetry }: { onRetry: () => void }) {
  return (
    <Panel>
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="mt-2 text-base-content/80">
        This part of the page hit an unexpected error. Your saved work is safe on this device.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <button type="button" className="btn btn-primary" onClick={onRetry}>
          Try Again
        </button>
        <button type="button" className="btn btn-outline" onClick={() => window.location.reload()}>
          <Icon name="refresh" className="size-4" />
          Refresh Page
        </button>
      </div>
    </Panel>
  );
}

export function RouterErrorScreen({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Panel>
      <h1 className="text-2xl font-bold">Unexpected Application Error!</h1>
      <p className="mt-2 text-base-content/80">This page could not be loaded. Check your connection, then reload.</p>
      <pre className="mt-4 max-w-full overflow-x-auto rounded-box bg-base-200 p-3 text-left text-sm whitespace-pre-wrap">
        {message}
      </pre>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          <Icon name="refresh" className="size-4" />
          Reload
        </button>
        <a href="/" className="btn btn-outline">
          Go Home
        </a>
      </div>
    </Panel>
  );
}
