// The one check of a prompt and a negative prompt (docs/spec.md §5), run by the generator form, the queue, the
// generate-image function and the local backend alike, so all of them accept and refuse the same text.
//
// The rule: the text is trimmed first (leading and trailing white space is never sent nor stored), then
// its characters are counted as Unicode code points. Why code points: a person sees an emoji such as
// 🎨 as one character, but JavaScript's `.length` and a textarea's `maxLength` count UTF-16 units and
// see two, so a 500-character prompt with emoji would be cut or refused though the counter said it
// fits. Postgres' `char_length`, which the generations table's check uses, counts code points too,
// so the form, the function and the database agree. (Grapheme clusters, e.g. a family emoji made of
// several code points as one, would follow the eye even more closely, but their boundaries change with
// each Unicode version and no longer match the database's count.)
import { VALIDATION_MESSAGES } from "./errors.ts";
import { NEGATIVE_PROMPT_MAX_CHARS, PROMPT_MAX_CHARS } from "./generation.ts";
import { unstorableMessage, unstorableText } from "./text.ts";

/** How many characters `text` has: its Unicode code points (a surrogate pair is one). */
export function countChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The characters a field holding `text` counts against its limit: trimmed, in code points. */
export const countedChars = (text: string): number => countChars(text.trim());

/** How many characters are left under `max` for a field holding `text` (negative when over). */
export const charsLeft = (text: string, max: number): number => max - countedChars(text);

/** The first `max` code points of `text`: never ends inside a surrogate pair. */
export function clipChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let units = 0;
  for (let n = 0; n < max && units < text.length; n++) {
    const c = text.charCodeAt(units);
    const next = text.charCodeAt(units + 1);
    units += c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, units);
}

/**
 * The docs/spec.md §5 message for this prompt, or null when it is accepted. Checks the text as it will be sent
 * (trimmed).
 */
export function validatePrompt(prompt: string): string | null {
  const text = prompt.trim();
  if (!text) return VALIDATION_MESSAGES.promptRequired;
  if (countChars(text) > PROMPT_MAX_CHARS) return VALIDATION_MESSAGES.promptTooLong;
  if (unstorableText(text)) return unstorableMessage("The prompt");
  return null;
}

/** The same for the negative prompt, which may be empty. */
export function validateNegativePrompt(negativePrompt: string): string | null {
  const text = negativePrompt.trim();
  if (countChars(text) > NEGATIVE_PROMPT_MAX_CHARS) return VALIDATION_MESSAGES.negativePromptTooLong;
  if (unstorableText(text)) return unstorableMessage("The negative prompt");
  return null;
}
