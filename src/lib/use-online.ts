// Whether the browser says it is online, as a React value that follows the online and offline events.
// Server rendering and non-browser runs count as online.
import { useSyncExternalStore } from "react";
import { isOnline } from "./online";

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener("online", listener);
  window.addEventListener("offline", listener);
  return () => {
    window.removeEventListener("online", listener);
    window.removeEventListener("offline", listener);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, isOnline, () => true);
}
