// The URL fragment as the page was opened. supabase-js reads and then clears a sign-in fragment
// (#access_token=… or #error=…) while it starts, so screens that explain a link's outcome read
// this copy, taken before anything else runs.

const captured = typeof window === "undefined" ? "" : window.location.hash;

export function initialFragment(): URLSearchParams {
  return new URLSearchParams(captured.replace(/^#/, ""));
}

/** True when the page was opened from an auth e-mail link (a session or an error in the fragment). */
export function openedFromAuthLink(): boolean {
  const params = initialFragment();
  return params.has("access_token") || params.has("error_description") || params.has("error_code");
}
