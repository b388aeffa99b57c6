// A device signed in for a page test: before each test of the enclosing suite the device's database is
// emptied and the session view says "signed in as u1"; after each it says signed out again (and, when
// asked, no toast a test left stays for the next).
import { afterEach, beforeEach } from "vitest";
import { setSessionView } from "#src/state/session-store.ts";
import { dismissToast, toasts } from "#src/state/toasts.ts";
import { resetDb } from "../unit/features/library/seed.ts";

/** The person the device is signed in as. */
const SIGNED_IN_USER = { id: "u1", email: "a@example.com" };

export function signedInDevice({ clearToasts = false } = {}): void {
  beforeEach(async () => {
    await resetDb();
    setSessionView({ status: "signed-in", user: SIGNED_IN_USER, verified: true });
  });
  afterEach(() => {
    if (clearToasts) for (const t of [...toasts.items]) dismissToast(t.id);
    setSessionView({ status: "signed-out", user: null, verified: true });
  });
}
