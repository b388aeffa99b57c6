// Reads a prompt the way the built-in engine can use it: which motifs to draw, which colours to favour
// (a colour word right before a motif word binds to that motif: "red car"), and what to leave out
// (the negative prompt, plus "no"/"without" inside the prompt itself). In a compound of two things
// ("fishing boat", "house cat") the last word is the subject and the first only says what kind.
import type { Rgb } from "./color.ts";
import { COLOR_WORDS, isThing, MOTIF_INDEX, type MotifId } from "./motifs.ts";

export interface ParsedPrompt {
  /** Motifs in order of first mention, without any the negative prompt removes. */
  motifs: MotifId[];
  /** Colour words in order of mention (unbound and bound), without removed ones. */
  colors: string[];
  /** Colours bound to the motif named right after them. */
  motifColors: Partial<Record<MotifId, Rgb>>;
  /** Motifs the negative prompt (or a "no x" in the prompt) forbids, even as defaults. */
  bannedMotifs: MotifId[];
  bannedColors: string[];
}

const NEGATORS = new Set(["no", "without", "not", "never", "except", "minus"]);
const FILLERS = new Set(["a", "an", "the", "any", "some", "more", "of"]);

export function tokenize(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .match(/[a-z]+/g) ?? []
  );
}

/** Light stemming: plurals and -ing/-ed endings, enough to match the vocabulary. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return word.slice(0, -3) + "y";
  if (word.length > 4 && /(ches|shes|xes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.length > 5 && word.endsWith("ing")) {
    const base = word.slice(0, -3);
    return /(.)\1$/.test(base) ? base.slice(0, -1) : base;
  }
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

interface Term {
  motifs: readonly MotifId[];
  color: string | null;
  negated: boolean;
}

function phraseAt(words: string[], i: number): readonly MotifId[] | undefined {
  if (i + 1 >= words.length) return undefined;
  return MOTIF_INDEX.get(`${words[i]} ${words[i + 1]}`) ?? MOTIF_INDEX.get(`${words[i]} ${stem(words[i + 1])}`);
}

function wordAt(words: string[], i: number): readonly MotifId[] {
  return i < words.length ? (MOTIF_INDEX.get(words[i]) ?? MOTIF_INDEX.get(stem(words[i])) ?? []) : [];
}

/**
 * A word naming only things, right before a word naming another thing, is that thing's kind, not a
 * second subject: "fishing boat" is a boat, "house cat" a cat, "fishing village" houses. A thing
 * before a place stays ("koi pond" has its koi), and fire is no thing ("burning house" is on fire).
 */
function isModifier(motifs: readonly MotifId[], next: readonly MotifId[]): boolean {
  return motifs.length > 0 && motifs.every(isThing) && next.some((m) => isThing(m) && !motifs.includes(m));
}

/** Recognised terms of a text in order; a phrase of two words wins over its single words. */
function terms(text: string): Term[] {
  const words = tokenize(text);
  const out: Term[] = [];
  let negate = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (NEGATORS.has(word)) {
      negate = 3;
      continue;
    }
    const phrase = phraseAt(words, i);
    const motifs = phrase ?? wordAt(words, i);
    // Skipped like a filler, so a colour or a "no" before it reaches the thing it qualifies. A word in
    // -ing after it is a verb, not the head ("a man fishing").
    const head = words[i + 1]?.endsWith("ing") ? [] : (phraseAt(words, i + 1) ?? wordAt(words, i + 1));
    if (!phrase && isModifier(motifs, head)) continue;
    const color = phrase ? null : COLOR_WORDS[word] ? word : COLOR_WORDS[stem(word)] ? stem(word) : null;
    if (phrase) i++;
    if (motifs.length > 0 || color) {
      out.push({ motifs, color, negated: negate > 0 });
      // "no red cars": the negation carries from a colour to the motif it qualifies.
      if (!(color && motifs.length === 0)) negate = 0;
    } else if (negate > 0 && !FILLERS.has(word)) {
      negate--;
    }
  }
  return out;
}

export function parsePrompt(prompt: string, negativePrompt = ""): ParsedPrompt {
  const banned = new Set<MotifId>();
  const bannedColors = new Set<string>();
  for (const t of terms(negativePrompt)) {
    t.motifs.forEach((m) => banned.add(m));
    if (t.color) bannedColors.add(t.color);
  }
  const positive = terms(prompt);
  for (const t of positive) {
    if (!t.negated) continue;
    t.motifs.forEach((m) => banned.add(m));
    if (t.color) bannedColors.add(t.color);
  }

  const motifs: MotifId[] = [];
  const colors: string[] = [];
  const motifColors: Partial<Record<MotifId, Rgb>> = {};
  let pendingColor: string | null = null;
  for (const t of positive) {
    if (t.negated) continue;
    if (t.color && !bannedColors.has(t.color)) {
      if (!colors.includes(t.color)) colors.push(t.color);
      pendingColor = t.color;
    }
    for (const m of t.motifs) {
      if (banned.has(m)) continue;
      if (!motifs.includes(m)) motifs.push(m);
      if (pendingColor && t.color !== pendingColor) motifColors[m] = COLOR_WORDS[pendingColor];
    }
    if (t.motifs.length > 0) pendingColor = null;
  }
  return { motifs, colors, motifColors, bannedMotifs: [...banned], bannedColors: [...bannedColors] };
}
