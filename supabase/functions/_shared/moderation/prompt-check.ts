// The prompt check (docs/decisions/140-the-prompt-check.md): a kept moderation library for text,
// obscenity, with its English dataset and its recommended transformers (look-alike characters,
// leet-speak, repeated letters; a word of digits alone is read as a number), a few words of the content
// policy the dataset lacks for images, and the terms operators keep in `moderation_terms`. Letters spelled
// out one by one ("n u d e", "p.o.r.n") are joined and checked too. Only the prompt is checked: the
// negative prompt names what a person wants kept out of the image. The operators' terms are read at most
// once per TERMS_TTL_MS; when they cannot be read the last list read is used (none yet: the library's
// alone), and the failure is logged.
// deno-lint-ignore no-import-prefix -- deployed functions have no package.json to map a bare name
import * as obscenity from "npm:obscenity@0.4.6";
import type { Result } from "../errors.ts";

/** The terms operators keep (moderation_terms, read with the service role). */
export type TermSource = () => Promise<Result<string[]>>;

/** Where a refused prompt's match came from: the library's dataset, the app's words, or an operator's term. */
export type MatchSource = "library" | "app" | "operator";

export type PromptVerdict = { allowed: true } | { allowed: false; source: MatchSource };

/** Checks one prompt; never rejects. */
export type PromptCheck = (prompt: string) => Promise<PromptVerdict>;

/** How long a list of operators' terms is used before it is read again. */
export const TERMS_TTL_MS = 30_000;

/**
 * Words of the content policy ("sexually explicit or pornographic images", "sexual content involving
 * minors") that the library's English dataset, written for chat, does not have. Each matches at the start
 * of a word (`nude` also finds "nudes"), after the same transformers as the prompt.
 */
export const APP_TERMS: readonly string[] = [
  "nsfw",
  "nude",
  "nudity",
  "naked",
  "topless",
  "lolicon",
  "shotacon",
];

type Meta = { source: MatchSource; originalWord?: string };
type Transformer = { type: number; transform?: (c: number) => number | undefined; factory?: () => Stateful };
type Stateful = { transform: (c: number) => number | undefined; reset(): void };

const TRANSFORMERS = obscenity.englishRecommendedTransformers;

/**
 * A term as the matcher sees text: the library's own blacklist transformers applied to it, as they are
 * to every prompt, so an operator's "yummy" still matches after repeated letters collapse, and "1488"
 * after leet-speak is read.
 */
export function transformTerm(term: string): string {
  const chain = TRANSFORMERS.blacklistMatcherTransformers as unknown as Transformer[];
  const stateful = chain.map((t) => (t.factory ? t.factory() : null));
  let out = "";
  for (const ch of term.normalize("NFKD").replace(/\p{M}/gu, "")) {
    let c: number | undefined = ch.codePointAt(0);
    for (let i = 0; i < chain.length && c !== undefined; i++) {
      c = stateful[i] ? stateful[i]!.transform(c) : chain[i].transform!(c);
    }
    if (c !== undefined) out += String.fromCodePoint(c);
  }
  return out.trim();
}

/** The term as a pattern matching at the start of a word, its pattern syntax escaped; null if it cannot be one. */
function termPattern(term: string) {
  const text = transformTerm(term);
  // A term that shrinks to one letter (repeats collapse: "xxx" is "x") would match every word it starts.
  if ([...text].length < 2) return null;
  // The start of a word is a regular expression's \b: it holds before a word character only.
  const boundary = /^\w/.test(text) ? "|" : "";
  try {
    return obscenity.parseRawPattern(`${boundary}${text.replace(/[\\[\]?|]/g, (c) => `\\${c}`)}`);
  } catch {
    return null;
  }
}

const LIBRARY = (() => {
  const data = new obscenity.DataSet<Meta>().addAll(obscenity.englishDataset as unknown as obscenity.DataSet<Meta>);
  const words = new obscenity.DataSet<Meta>();
  for (const term of APP_TERMS) {
    const pattern = termPattern(term);
    if (pattern) words.addPhrase((p) => p.setMetadata({ source: "app", originalWord: term }).addPattern(pattern));
  }
  return data.addAll(words);
})();

function buildMatcher(terms: readonly string[]) {
  const data = new obscenity.DataSet<Meta>().addAll(LIBRARY);
  for (const term of terms) {
    const pattern = termPattern(term);
    if (pattern) data.addPhrase((p) => p.setMetadata({ source: "operator", originalWord: term }).addPattern(pattern));
  }
  return { data, matcher: new obscenity.RegExpMatcher({ ...data.build(), ...TRANSFORMERS }) };
}

// Separators between letters spelled out one at a time, and a run of at least three such letters
// (digits and the leet-speak signs count as letters) standing as a word of its own.
const SEPARATOR = /[\s.\-_*~+,'"/\\]/gu;
const SPELLED = /(?<![\p{L}\p{N}])(?:[\p{L}\p{N}@$!][\s.\-_*~+,'"/\\]{1,3}){2,}[\p{L}\p{N}@$!](?![\p{L}\p{N}])/gu;

/**
 * The text with every run of spelled-out letters joined into a word ("n u d e" → "nude"). With
 * `afterArticle`, a run that starts with "a" or "I" keeps that word apart ("a n u d e" → "a nude").
 */
export function joinSpelledLetters(text: string, afterArticle = false): string {
  return text.replace(SPELLED, (run) => {
    const article = afterArticle ? /^[aAiI][\s.\-_*~+,'"/\\]+/.exec(run)?.[0] ?? "" : "";
    return article + run.slice(article.length).replace(SEPARATOR, "");
  });
}

/**
 * Whether `text[start..end]` (inclusive) lies in a word of digits alone ("room 455", "plate 4554"). Leet-speak
 * reads 4 as a and 5 as s, so the library's dataset would find a word there; an image model reads a number.
 * A word with a letter in it ("a55") is still read as leet-speak.
 */
export function inNumber(text: string, start: number, end: number): boolean {
  const before = /[\p{L}\p{N}]*$/u.exec(text.slice(0, start))?.[0] ?? "";
  const after = /^[\p{L}\p{N}]*/u.exec(text.slice(end + 1))?.[0] ?? "";
  return /^\p{N}+$/u.test(before + text.slice(start, end + 1) + after);
}

/**
 * What the matcher finds in `text`, or in the text with its spelled-out letters joined. A match of the
 * library's or the app's words inside a number is not one; an operator's term is matched there too (an
 * operator may keep "1488").
 */
function firstMatch(built: ReturnType<typeof buildMatcher>, text: string): MatchSource | null {
  const candidates = new Set([text, joinSpelledLetters(text), joinSpelledLetters(text, true)]);
  for (const candidate of candidates) {
    for (const match of built.matcher.getAllMatches(candidate)) {
      const source = built.data.getPayloadWithPhraseMetadata(match).phraseMetadata?.source ?? "library";
      if (source === "operator" || !inNumber(candidate, match.startIndex, match.endIndex)) return source;
    }
  }
  return null;
}

export interface PromptCheckOptions {
  terms?: TermSource;
  now?: () => number;
  ttlMs?: number;
  /** Receives codes only, never the prompt. */
  log?: (event: string, fields: Record<string, unknown>) => void;
}

/** The check with the operators' terms from `terms` (none without it), kept for `ttlMs`. */
export function createPromptCheck(opts: PromptCheckOptions = {}): PromptCheck {
  const now = opts.now ?? (() => Date.now());
  const ttl = opts.ttlMs ?? TERMS_TTL_MS;
  let built = buildMatcher([]);
  let builtKey = "";
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | null = null;

  async function refresh(source: TermSource): Promise<void> {
    const read = await source().catch((e) => ({ ok: false as const, error: { detail: String(e) } }));
    readAt = now();
    if (!read.ok) {
      opts.log?.("moderation_terms.read_failed", { detail: read.error.detail });
      return;
    }
    const key = [...read.value].sort().join("\n");
    if (key !== builtKey) {
      built = buildMatcher(read.value);
      builtKey = key;
    }
  }

  return async (prompt) => {
    if (opts.terms && now() - readAt >= ttl) {
      reading ??= refresh(opts.terms).finally(() => (reading = null));
      await reading;
    }
    const source = firstMatch(built, prompt);
    return source ? { allowed: false, source } : { allowed: true };
  };
}
