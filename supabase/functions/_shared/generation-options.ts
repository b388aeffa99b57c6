// What a generation needs beyond the vocabulary's settings (vocabulary/generation.ts): the seed of a
// request that left it empty, and how a remote model hears the chosen style.

/**
 * The seed used when the person left it empty ("random"): derived from the request id, so a retried or
 * concurrently duplicated request draws the same image and stores the same metadata.
 */
export function seedFromRequestId(requestId: string): number {
  const hex = requestId.replace(/-/g, "");
  let h = 0x811c9dc5;
  for (let i = 0; i < hex.length; i++) {
    h ^= hex.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Words added to a remote model's prompt so the chosen style reaches it (the built-in engine reads the id). */
export function styledPrompt(prompt: string, style: string): string {
  if (style === "nano-banana") return prompt;
  return `${prompt}, ${style.replace(/-/g, " ")} style`;
}
