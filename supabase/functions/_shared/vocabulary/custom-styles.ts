// Custom styles (issue 45, decision 152): a person's own styles beside the 27. One set of limits and one way
// of applying a style's words, shared by the style editor, the generator, the queue and generate-image, so
// all of them accept and refuse the same thing. SQL repeats the limits in the custom_styles table's checks
// (supabase/migrations/20261126150000_create_custom_styles.sql); a db test proves them equal. A preview is a
// small JPEG data: URL (the device's thumbnail of one of the person's images), at most 150,000 characters.
import type { AspectRatio, Quality } from "./generation.ts";
import { NEGATIVE_PROMPT_MAX_CHARS, PROMPT_MAX_CHARS } from "./generation.ts";
import { countChars } from "./prompt.ts";
import type { StyleId } from "./styles.ts";
import { unstorableMessage, unstorableText } from "./text.ts";

export const CUSTOM_STYLE_NAME_MAX = 40;
export const CUSTOM_STYLE_WORDS_MAX = 200;
export const CUSTOM_STYLE_NEGATIVE_MAX = 200;

/** The tier that may make and change custom styles (the pricing page's "Pro" plan). */
export const CUSTOM_STYLES_TIER = "premium";

/** A custom style as the server keeps it (snake_case, public.custom_styles). */
export interface CustomStyleRow {
  id: string;
  user_id: string;
  name: string;
  prompt: string;
  negative_prompt: string;
  base_style: StyleId;
  quality: Quality;
  aspect_ratio: AspectRatio;
  preview: string | null;
  created_at: string;
  updated_at: string;
}

export const CUSTOM_STYLE_COLUMNS =
  "id,user_id,name,prompt,negative_prompt,base_style,quality,aspect_ratio,preview,created_at,updated_at";

/**
 * What a generation carries of the custom style it is made with (the queued task keeps it, so a task
 * queued offline runs as made even if the style changes or goes meanwhile): generate-image's `custom_style`.
 */
export interface AppliedCustomStyle {
  id: string;
  name: string;
  /** The words added to the prompt. */
  prompt: string;
  negativePrompt: string;
}

/** Custom style fields as the editor sends them, checked: null when acceptable, else the message. */
export function validateCustomStyle(s: { name: string; prompt: string; negativePrompt: string }): string | null {
  const name = s.name.trim();
  if (!name) return "Give the style a name";
  if (countChars(name) > CUSTOM_STYLE_NAME_MAX) return `The name can be at most ${CUSTOM_STYLE_NAME_MAX} characters`;
  const words = s.prompt.trim();
  if (!words) return "Write the words the style adds to the prompt";
  if (countChars(words) > CUSTOM_STYLE_WORDS_MAX) {
    return `The style's words can be at most ${CUSTOM_STYLE_WORDS_MAX} characters`;
  }
  if (countChars(s.negativePrompt.trim()) > CUSTOM_STYLE_NEGATIVE_MAX) {
    return `The style's negative prompt can be at most ${CUSTOM_STYLE_NEGATIVE_MAX} characters`;
  }
  for (
    const [label, text] of [["The name", name], ["The style's words", words], [
      "The style's negative prompt",
      s.negativePrompt,
    ]] as const
  ) {
    if (unstorableText(text)) return unstorableMessage(label);
  }
  return null;
}

/** Two texts joined as a prompt joins phrases: ", " between them, either side may be empty. */
function joined(first: string, second: string): string {
  const a = first.trim();
  const b = second.trim();
  return a && b ? `${a}, ${b}` : a || b;
}

/**
 * The prompt and negative prompt as drawn with a custom style: its words after the person's prompt, its
 * negative prompt after theirs. The spec's limits hold for the result (a prompt of at most
 * PROMPT_MAX_CHARS, a negative prompt of at most NEGATIVE_PROMPT_MAX_CHARS): `error` says when it does not.
 */
export function applyCustomStyle(
  prompt: string,
  negativePrompt: string,
  style: Pick<AppliedCustomStyle, "prompt" | "negativePrompt"> | null | undefined,
): { prompt: string; negativePrompt: string; error: string | null } {
  if (!style) return { prompt: prompt.trim(), negativePrompt: negativePrompt.trim(), error: null };
  const p = joined(prompt, style.prompt);
  const n = joined(negativePrompt, style.negativePrompt);
  let error: string | null = null;
  if (countChars(p) > PROMPT_MAX_CHARS) {
    error = `With the style's words the prompt is over ${PROMPT_MAX_CHARS} characters; shorten it by ${
      countChars(p) - PROMPT_MAX_CHARS
    }`;
  } else if (countChars(n) > NEGATIVE_PROMPT_MAX_CHARS) {
    error = `With the style's negative prompt the negative prompt is over ${NEGATIVE_PROMPT_MAX_CHARS} characters`;
  }
  return { prompt: p, negativePrompt: n, error };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * generate-image's `custom_style` field, trusting none of it: absent is null; otherwise an object with a
 * UUID id, a name and words within the limits (a string `error` otherwise).
 */
export function parseAppliedCustomStyle(v: unknown): { value: AppliedCustomStyle | null } | { error: string } {
  if (v === undefined || v === null) return { value: null };
  if (typeof v !== "object" || Array.isArray(v)) return { error: "custom_style must be an object" };
  const o = v as Record<string, unknown>;
  if (typeof o.id !== "string" || !UUID.test(o.id)) return { error: "custom_style.id must be a UUID" };
  const negative = o.negative_prompt ?? "";
  if (typeof o.name !== "string" || typeof o.prompt !== "string" || typeof negative !== "string") {
    return { error: "custom_style needs a name, prompt and negative_prompt as text" };
  }
  const invalid = validateCustomStyle({ name: o.name, prompt: o.prompt, negativePrompt: negative });
  if (invalid) return { error: invalid };
  return {
    value: { id: o.id.toLowerCase(), name: o.name.trim(), prompt: o.prompt.trim(), negativePrompt: negative.trim() },
  };
}
