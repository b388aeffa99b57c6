// Holds the browser's install offer. Chromium fires `beforeinstallprompt` once, early and maybe before
// any component exists, so main.tsx starts listening at boot; the install button reads the offer here.
// Once the app is installed (or the offer used), the button disappears.
import { useSyncExternalStore } from "react";

/** The non-standard event Chromium fires when the app may be installed. */
export type InstallPromptEvent = Event & {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed"; platform?: string }>;
};

let offer: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();

function set(next: InstallPromptEvent | null): void {
  offer = next;
  listeners.forEach((l) => l());
}

export function listenForInstallPrompt(target: Pick<Window, "addEventListener">): void {
  target.addEventListener("beforeinstallprompt", (e) => {
    // Keep the offer for our own button instead of the browser's mini-infobar.
    e.preventDefault();
    set(e as InstallPromptEvent);
  });
  target.addEventListener("appinstalled", () => set(null));
}

export function canInstall(): boolean {
  return offer !== null;
}

/** Shows the browser's install dialog; resolves with the person's answer. */
export async function promptInstall(): Promise<"accepted" | "dismissed" | "unavailable"> {
  const current = offer;
  if (!current) return "unavailable";
  set(null); // an offer can be shown once
  await current.prompt();
  const { outcome } = await current.userChoice;
  return outcome;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCanInstall(): boolean {
  return useSyncExternalStore(subscribe, canInstall, () => false);
}
