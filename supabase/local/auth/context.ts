// What every auth endpoint receives: the backend context plus the auth service's own settings.
import type { Ctx } from "../http.ts";
import { failureResponse, type Outcome } from "./responses.ts";
import { json } from "../http.ts";

export interface AuthCtx extends Ctx {
  /** GoTrue's MAILER_AUTOCONFIRM: new accounts are confirmed at once (the local default). */
  autoconfirm: boolean;
}

export type Endpoint = (actx: AuthCtx, req: Request, url: URL) => Promise<Response>;

/** A JSON answer for a successful outcome, GoTrue's error body otherwise. */
export function answer<T>(outcome: Outcome<T>, status = 200): Response {
  return outcome.ok ? json(outcome.value, status) : failureResponse(outcome.error);
}
