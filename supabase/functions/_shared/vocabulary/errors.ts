// The error catalogue (docs/spec.md §8): the codes the server answers with and the client shows, with the
// spec's title, message and action for each. The server picks `code`; the client maps any failure to
// one of these codes once (src/api/errors.ts) and shows the entry. `invalid_input` is the server's
// validation failure (its message is the docs/spec.md §5 text and is shown as is).
import {
  NEGATIVE_PROMPT_MAX_CHARS,
  PROMPT_MAX_CHARS,
  REFERENCE_IMAGE_MAX_PIXELS,
  REFERENCE_IMAGE_MAX_SIDE,
} from "./generation.ts";

export const ERROR_CODES = [
  "rate_limit",
  "daily_limit",
  "nsfw_content",
  "publishing_suspended",
  "insufficient_credits",
  "network_error",
  "auth_required",
  "timeout",
  "server_error",
  "invalid_input",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** `to` is a path; an action without one re-runs what failed (Retry). */
export interface ErrorAction {
  label: string;
  to?: string;
}

export interface CatalogueEntry {
  title: string;
  message: string;
  action: ErrorAction;
  /** Whether trying the same request again later can succeed. */
  retryable: boolean;
}

const RETRY: ErrorAction = { label: "Retry" };

export const ERROR_CATALOGUE: Readonly<Record<ErrorCode, CatalogueEntry>> = {
  rate_limit: {
    title: "Too Many Requests",
    message: "Please wait 60 seconds before trying again",
    action: { label: "View Limits", to: "/pricing" },
    retryable: true,
  },
  // docs/spec.md §8 words this "Upgrade for unlimited generations"; no plan is unlimited (the largest is 9,999 a day),
  // so the text says what upgrading gives (docs/decisions/075-at-zero-left-nothing-is-sent.md).
  daily_limit: {
    title: "Daily Limit Reached",
    message: "You've reached your daily limit. Upgrade for more generations each day.",
    action: { label: "Upgrade Now", to: "/pricing" },
    retryable: false,
  },
  nsfw_content: {
    title: "Content Policy Violation",
    message: "Your prompt contains restricted content. Please modify it.",
    action: { label: "Content Policy", to: "/content-policy" },
    retryable: false,
  },
  // Not in docs/spec.md §8: publish-generation's answer (403) while an operator has suspended the account
  // from publishing (docs/decisions/141-the-image-check-before-publishing.md). The server's message names the end.
  publishing_suspended: {
    title: "Publishing Suspended",
    message: "Your account cannot publish to the gallery for now. Your images stay in your library.",
    action: { label: "Content Policy", to: "/content-policy" },
    retryable: false,
  },
  insufficient_credits: {
    title: "No Credits Remaining",
    message: "Upgrade to continue generating images",
    action: { label: "Get Credits", to: "/pricing" },
    retryable: false,
  },
  network_error: {
    title: "Connection Failed",
    message: "Check your internet connection and try again",
    action: RETRY,
    retryable: true,
  },
  auth_required: {
    title: "Authentication Required",
    message: "Please sign in to continue",
    action: { label: "Sign In", to: "/auth" },
    retryable: false,
  },
  timeout: {
    title: "Request Timeout",
    message: "Generation is taking longer than expected. Please try again.",
    action: RETRY,
    retryable: true,
  },
  server_error: {
    title: "Server Error",
    message: "Our servers are experiencing issues. Please try again in a moment.",
    action: RETRY,
    retryable: true,
  },
  invalid_input: {
    title: "Check Your Settings",
    message: "The request is not valid",
    action: RETRY,
    retryable: false,
  },
};

/** docs/spec.md §5 validation messages (the spec names no text for the two length limits). */
export const VALIDATION_MESSAGES = {
  promptRequired: "Please enter a prompt",
  promptTooLong: `The prompt must be at most ${PROMPT_MAX_CHARS} characters`,
  negativePromptTooLong: `The negative prompt must be at most ${NEGATIVE_PROMPT_MAX_CHARS} characters`,
  notAnImage: "Please select an image file",
  referenceTooLarge: `The reference image must be at most ${REFERENCE_IMAGE_MAX_SIDE} pixels on a side and ${
    REFERENCE_IMAGE_MAX_PIXELS / 1_000_000
  } million pixels in all`,
  signInToGenerate: "Please sign in to generate images",
  dailyLimit: "Daily limit reached. Upgrade to continue generating images.",
  signInForPreferences: "Please sign in to update preferences",
  notAuthenticated: "User not authenticated",
} as const;
