// Moderation's shared facts: the reasons a person may report a published image (the content policy's
// categories, /content-policy), the limits on what a report, an operator's action and an operator's term
// may carry, the actions an operator takes, and the line an owner reads on an image an operator removed.
// SQL repeats the reasons in `public.report_reasons` and the limits in checks; a db test proves they match.

/** The content policy's categories, in the policy's order: the only reasons a report may give. */
export const REPORT_REASONS = [
  "minors",
  "sexual",
  "real-people",
  "violence",
  "hate",
  "harassment",
  "deception",
  "infringement",
  "illegal",
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What the report dialog and the moderation queue show for each reason. */
export const REPORT_REASON_LABELS: Readonly<Record<ReportReason, string>> = {
  minors: "Sexual content involving minors",
  sexual: "Sexually explicit or pornographic",
  "real-people": "A real person deceived, harassed, sexualised or defamed",
  violence: "Violence, terrorism, self-harm or gore",
  hate: "Hate against a group of people",
  harassment: "Harassment, threats or bullying",
  deception: "Deceptive: fake news, forgery or impersonation",
  infringement: "Infringes a trademark, copyright or an artist's work",
  illegal: "Something else illegal",
};

export const isReportReason = (value: unknown): value is ReportReason => REPORT_REASONS.includes(value as ReportReason);

/** The longest note a report may carry, in characters as Postgres' length() counts them (see charCount). */
export const REPORT_NOTE_MAX_CHARS = 500;

/** Characters as Postgres counts them (code points): an emoji is one, where String.length says two. */
export const charCount = (s: string): number => [...s].length;

/** This many different reporters take an image out of the gallery until an operator reviews it. */
export const REPORTS_TO_HOLD = 3;

/** What an operator can do to a reported, flagged or held image. */
export const MODERATION_ACTIONS = ["restore", "unpublish", "suspend"] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export const MODERATION_ACTION_LABELS: Readonly<Record<ModerationAction, string>> = {
  restore: "Restore",
  unpublish: "Unpublish",
  suspend: "Unpublish and suspend",
};

/** Every action carries a reason the owner reads; unpublish and suspend must give one (1 to this many chars). */
export const ACTION_REASON_MAX_CHARS = 500;

/** The suspension lengths the moderation page offers, in days. The database takes any future end. */
export const SUSPENSION_DAYS = [1, 7, 30, 365] as const;

/** A term operators add to the prompt check: stored lowercased and trimmed, 1 to this many chars. */
export const TERM_MAX_CHARS = 64;

/** The form a term is stored in (lowercased, trimmed), or null when it cannot be one. */
export function normalizeTerm(raw: string): string | null {
  const term = raw.trim().toLowerCase();
  const n = charCount(term);
  return n >= 1 && n <= TERM_MAX_CHARS ? term : null;
}

/** The role in a JWT's app_metadata that makes its holder an operator (set only with the service role). */
export const OPERATOR_ROLE = "operator";

/** The error code publish-generation answers (403) while the owner is suspended from publishing. */
export const PUBLISHING_SUSPENDED_CODE = "publishing_suspended";

// What the database's moderation calls answer, as SQLSTATE codes (PostgREST turns them into statuses;
// PTxyz is status xyz): PT404 (404) for report_generation or moderate_generation on a row that is missing
// or not in the gallery; 22023 (400) for a reason or action outside the lists, a missing reason or a
// suspension end not in the future; 22001 (400) for a note or an action's reason over its limit; 42501
// (401 for a visitor, 403 signed in) for a non-operator calling an operator function, or anyone but the
// service role publishing; PT403 (403) for publishing a row while its owner is suspended or one an operator
// removed, its message `publishing_suspended` or `removed_by_operator`.

/** The message of a refused publish (PT403) while an operator removed the row from the gallery. */
export const REMOVED_BY_OPERATOR_CODE = "removed_by_operator";

/** The line an owner reads on their image after an operator removed it from the gallery. */
export function removedFromGalleryLine(reason: string | null): string {
  const why = reason?.trim();
  return why ? `Removed from the gallery: ${why}` : "Removed from the gallery";
}

/**
 * The image check flags an image (keeps it out of the gallery) when the classifier's two sexually explicit
 * classes, Porn and Hentai, together reach this (docs/decisions/141-the-image-check-before-publishing.md).
 * Shared so the content policy states the figure the server applies.
 */
export const EXPLICIT_THRESHOLD = 0.7;
