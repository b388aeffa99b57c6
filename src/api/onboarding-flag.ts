// The welcome tour's completion kept with the account (docs/decisions/133-onboarding-completion-is-kept-with-the-account.md):
// a key of the person's user_metadata, so a tour finished on one device is not offered on the next.
// The flag of docs/spec.md §4 (onboarding_completed in local storage) stays the first answer; this is
// read only when that one is not set and someone is signed in.
import { err, ok, type Result } from "../lib/result";
import { toAuthFailure, type AuthFailure } from "./auth-errors";
import { supabase } from "./client";

export const ACCOUNT_ONBOARDING_KEY = "onboarding_completed";

/** Whether the signed-in account has completed the tour; null when nobody is signed in. */
export async function accountOnboardingCompleted(): Promise<boolean | null> {
  try {
    // Read from the stored session (no request unless its token must be renewed first).
    const { data } = await supabase().auth.getSession();
    const user = data.session?.user;
    if (!user) return null;
    return (user.user_metadata as Record<string, unknown> | undefined)?.[ACCOUNT_ONBOARDING_KEY] === true;
  } catch {
    return null;
  }
}

/** Records the completion with the signed-in account (GoTrue merges the key into user_metadata). */
export async function markAccountOnboardingCompleted(): Promise<Result<void, AuthFailure>> {
  try {
    const { error } = await supabase().auth.updateUser({ data: { [ACCOUNT_ONBOARDING_KEY]: true } });
    return error ? err(toAuthFailure(error)) : ok(undefined);
  } catch (e) {
    return err(toAuthFailure(e));
  }
}
