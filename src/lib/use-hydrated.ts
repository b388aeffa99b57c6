// False while a page is prerendered and while the browser hydrates that markup, true afterwards (and
// from the start when nothing was prerendered). Components whose output depends on the browser (the
// host, the clock, storage) draw their neutral form until then, so hydration finds what the server
// wrote and React then re-renders them with the real values.
import { useSyncExternalStore } from "react";

const noSubscription = () => () => undefined;

export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
