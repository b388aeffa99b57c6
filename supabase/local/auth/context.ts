// What every auth endpoint receives: the backend context plus the auth service's own settings.
import type { Ctx } from "../http.ts";
import { failureResponse, type Outcome } from "./responses.ts";
import { json } from "../http.ts";
import type { RateLimiter } from "./rate-limits.ts";

export interface AuthCtx extends Ctx {
  /** GoTrue's MAILER_AUTOCONFIRM: new accounts are confirmed at once (the local default). */
  autoconfirm: boolean;
  /** GoTrue's per-IP request limits and the project's e-mail budget. */
  limits: RateLimiter;
}

/** Who is asking: the client's IP address as the socket reports it (no forwarding header is trusted). */
export interface Client {
  ip: string;
}

export type Endpoint = (actx: AuthCtx, req: Request, url: URL, client: Client) => Promise<Response>;

/** A JSON answer for a successful outcome, GoTrue's error body otherwise. */
export function answer<T>(outcome: Outcome<T>, status = 200): Response {
  return outcome.ok ? json(outcome.value, status) : failureResponse(outcome.error);
}
