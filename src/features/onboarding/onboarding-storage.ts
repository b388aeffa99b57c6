// The onboarding flag of docs/spec.md §4: not completed, then completed (localStorage onboarding_completed).
export const ONBOARDING_KEY = "onboarding_completed";
/** docs/spec.md §9: the dialog opens about one second after the first load. */
export const ONBOARDING_DELAY_MS = 1_000;
/** Pages where a welcome tour would get in the way of what the person came to do. */
const QUIET_PATHS = ["/auth", "/reset-password"];

export function isOnboardingCompleted(storage: Pick<Storage, "getItem"> | undefined): boolean {
  try {
    return storage?.getItem(ONBOARDING_KEY) === "true";
  } catch {
    return true; // storage blocked: we could never remember the answer, so do not ask every time
  }
}

export function markOnboardingCompleted(storage: Pick<Storage, "setItem"> | undefined): void {
  try {
    storage?.setItem(ONBOARDING_KEY, "true");
  } catch {
    // Storage is blocked or full; the dialog closes anyway.
  }
}

export function shouldOfferOnboarding(storage: Pick<Storage, "getItem"> | undefined, path: string): boolean {
  return !QUIET_PATHS.includes(path) && !isOnboardingCompleted(storage);
}
