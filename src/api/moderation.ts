// Reports and the operators' moderation, through the database's own calls (supabase/migrations, the
// moderation migration): `report_generation` for anyone signed in, and for operators `moderation_queue`,
// `moderate_generation` and the `moderation_terms` table. The server decides every time (is_operator()
// reads the token's app_metadata); the page's own check of the token only chooses what to draw.
import type { ModerationAction, ReportReason } from "#shared/vocabulary/moderation.ts";
import { OPERATOR_ROLE } from "#shared/vocabulary/moderation.ts";
import { err, ok, type Result } from "../lib/result";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";

/**
 * Why a call was refused, as its HTTP status says: `gone` (404: the image is not in the gallery, or not
 * there to act on), `invalid` (400: a reason or note the server does not take), `denied` (401/403: not
 * signed in, or not an operator), `failed` (anything else: the network, the server).
 */
export type RefusalKind = "gone" | "invalid" | "denied" | "failed";
export type Refusal = { kind: RefusalKind; error: AppError };

function kindOf(status: number | undefined): RefusalKind {
  if (status === 404) return "gone";
  if (status === 400) return "invalid";
  if (status === 401 || status === 403) return "denied";
  return "failed";
}

type Answer<T> = { data: T | null; error: unknown; status?: number };

/**
 * What the database said of a refusal of bad input (its message and detail, written for people in the
 * moderation migration: "you cannot report your own image. Unpublish or delete your own image instead."),
 * or null when it said nothing usable.
 */
export function serverWords(error: unknown): string | null {
  const field = (key: string) => {
    const value = (error as Record<string, unknown> | null)?.[key];
    return typeof value === "string" ? value.trim() : "";
  };
  const sentence = (text: string) => (text && !/[.!?]$/.test(text) ? `${text}.` : text);
  const message = sentence(field("message"));
  const words = [message && message[0].toUpperCase() + message.slice(1), sentence(field("details"))].filter(Boolean);
  return words.length ? words.join(" ") : null;
}

async function call<T>(run: () => PromiseLike<Answer<T>>): Promise<Result<T, Refusal>> {
  try {
    const { data, error, status } = await run();
    if (error) {
      const kind = kindOf(status);
      const appError = toAppError(error);
      // Bad input is the person's to fix: they read what exactly was wrong.
      if (kind === "invalid") appError.message = serverWords(error) ?? appError.message;
      return err({ kind, error: appError });
    }
    return ok(data as T);
  } catch (e) {
    return err({ kind: "failed", error: toAppError(e) });
  }
}

/** Reports a published image; a second report by the same person changes nothing and succeeds too. */
export function reportGeneration(id: string, reason: ReportReason, note: string): Promise<Result<unknown, Refusal>> {
  const trimmed = note.trim();
  return call(() =>
    supabase().rpc("report_generation", { p_generation_id: id, p_reason: reason, p_note: trimmed || null }),
  );
}

/** The claims of a JWT's payload (no signature check: the server checks; this only reads). */
export function tokenClaims(token: string | undefined): Record<string, unknown> | null {
  const payload = token?.split(".")[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
    const json = decodeURIComponent(
      Array.from(atob(base64), (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join(""),
    );
    const claims: unknown = JSON.parse(json);
    return claims && typeof claims === "object" ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Whether claims name an operator: `app_metadata.role`, which only the server can set. */
export function isOperatorClaims(claims: Record<string, unknown> | null): boolean {
  const meta = claims?.app_metadata;
  return Boolean(meta && typeof meta === "object" && (meta as Record<string, unknown>).role === OPERATOR_ROLE);
}

/** Whether the current session's token names an operator (false when signed out or unreadable). */
export async function sessionIsOperator(): Promise<boolean> {
  try {
    const { data } = await supabase().auth.getSession();
    return isOperatorClaims(tokenClaims(data.session?.access_token));
  } catch {
    return false;
  }
}

/** One report of an image, as the queue lists them (newest first). */
export type QueueReport = { reason: string; note: string | null; reporter_id: string; created_at: string };

/** One row of `moderation_queue()`: an image reported since its last review, flagged by the image check, or held. */
export type QueueRow = {
  generation_id: string;
  created_at: string;
  prompt: string;
  negative_prompt: string;
  style: string;
  width: number;
  height: number;
  image_path: string;
  owner_id: string;
  owner_email: string | null;
  is_public: boolean;
  flagged_at: string | null;
  held_at: string | null;
  moderation_scores: Record<string, number> | null;
  report_count: number;
  reasons: string[];
  reports: QueueReport[];
  /** The newest report, flag or hold: the queue's order. */
  last_event_at: string | null;
  /** The owner's suspension from publishing, while it lasts. */
  owner_suspended_until: string | null;
};

export function moderationQueue(): Promise<Result<QueueRow[], Refusal>> {
  return call(() => supabase().rpc("moderation_queue")).then((r) =>
    r.ok ? ok(((r.value as QueueRow[] | null) ?? []).map(normalizeQueueRow)) : r,
  );
}

/** The queue's lists may come as null; the page reads them as lists. */
function normalizeQueueRow(row: QueueRow): QueueRow {
  return {
    ...row,
    report_count: Number(row.report_count ?? 0),
    reasons: row.reasons ?? [],
    reports: Array.isArray(row.reports) ? row.reports : [],
  };
}

/** Restores, unpublishes, or unpublishes and suspends the owner from publishing until `suspendUntil`. */
export function moderateGeneration(
  id: string,
  action: ModerationAction,
  reason: string,
  suspendUntil: string | null,
): Promise<Result<unknown, Refusal>> {
  return call(() =>
    supabase().rpc("moderate_generation", {
      p_generation_id: id,
      p_action: action,
      p_reason: reason.trim(),
      p_suspend_until: action === "suspend" ? suspendUntil : null,
    }),
  );
}

export type TermRow = { term: string; created_at: string };

export function listTerms(): Promise<Result<TermRow[], Refusal>> {
  return call(() => supabase().from("moderation_terms").select("term,created_at").order("term")).then((r) =>
    r.ok ? ok((r.value as TermRow[] | null) ?? []) : r,
  );
}

/** Adds a term (already normalized); adding one that is there already changes nothing. */
export function addTerm(term: string): Promise<Result<unknown, Refusal>> {
  return call(async () => {
    const answer = await supabase().from("moderation_terms").insert({ term });
    // The term is in the list already (its primary key): what was asked for holds.
    return answer.error?.code === "23505" ? { data: null, error: null, status: 201 } : answer;
  });
}

export function removeTerm(term: string): Promise<Result<unknown, Refusal>> {
  return call(() => supabase().from("moderation_terms").delete().eq("term", term));
}
