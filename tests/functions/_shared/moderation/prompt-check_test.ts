// The prompt check: the library's dataset through its transformers (look-alikes, leet-speak, repeated
// letters), spelled-out letters joined, the app's words, the operators' terms (read through a source,
// kept for a while, the last list kept when a read fails), and prompts people really write left alone.
import assert from "node:assert/strict";
import {
  createPromptCheck,
  inNumber,
  joinSpelledLetters,
  type TermSource,
  transformTerm,
} from "../../../../supabase/functions/_shared/moderation/prompt-check.ts";
import { appError, fail, ok } from "../../../../supabase/functions/_shared/errors.ts";
import { PROMPTS } from "../../../../src/features/content/prompts/prompt-catalog.ts";

const check = createPromptCheck();
const refused = async (prompt: string) => !(await check(prompt)).allowed;

Deno.test("the library's words are refused, however they are disguised", async () => {
  for (
    const prompt of [
      "porn",
      "a porn still of two people",
      "p0rn", // leet-speak
      "fuuuuuck", // repeated letters
      "pornnnn",
      "ｐｏｒｎ", // full-width look-alikes
      "роrn", // Cyrillic look-alikes
      "P O R N poster", // spelled out
      "p.o.r.n",
      "f-u-c-k this",
      "hentai girl",
      "a55 shot", // a word with a letter is still read as leet-speak
      "5h1t",
    ]
  ) assert.ok(await refused(prompt), prompt);
});

Deno.test("the app's words for images are refused: nudity and sexualised minors", async () => {
  for (const prompt of ["a nude portrait", "nudes on a beach", "naked woman", "n a k e d", "NSFW art", "lolicon"]) {
    assert.deepEqual(await check(prompt), { allowed: false, source: "app" }, prompt);
  }
});

Deno.test("ordinary prompts pass, including words that contain a refused one", async () => {
  for (
    const prompt of [
      "a red fox in the snow",
      "a quiet harbour at dawn, watercolor",
      "a cocktail glass on a bar counter",
      "grapes in a bowl, still life",
      "the pen is mightier than the sword",
      "an analysis chart of the class assignment",
      "a scrapbook of Essex",
      "a bass guitar on a stage",
      "sunset over Scunthorpe",
      "a cat wearing a hat",
      "A B C blocks on a shelf",
      // Numbers are numbers: leet-speak would read 4 as a and 5 as s ("455" as a word of the library's).
      "a hotel door, room 455",
      "a licence plate reading 4554",
      "fault seed 4554 prompt 1",
    ]
  ) assert.deepEqual(await check(prompt), { allowed: true }, prompt);
});

Deno.test("every prompt the app offers (the prompt library) passes", async () => {
  assert.ok(PROMPTS.length >= 30);
  for (const { prompt } of PROMPTS) assert.deepEqual(await check(prompt), { allowed: true }, prompt);
});

Deno.test("an operator's term is refused at the start of a word, through the same transformers", async () => {
  const terms: TermSource = () => Promise.resolve(ok(["gore", "yummy", "blood bath", "1488"]));
  const withTerms = createPromptCheck({ terms });
  for (const prompt of ["gore everywhere", "g0r3 scene", "gorefest", "yuuuummy cake", "a BLOOD BATH", "1488"]) {
    assert.deepEqual(await withTerms(prompt), { allowed: false, source: "operator" }, prompt);
  }
  for (const prompt of ["Gregore's garden", "a blood orange", "a bloodhound bathing"]) {
    assert.deepEqual(await withTerms(prompt), { allowed: true }, prompt);
  }
  // The library's own words still count beside the terms.
  assert.deepEqual(await withTerms("porn"), { allowed: false, source: "library" });
});

Deno.test("the terms are read once per TTL, a changed list is used after it, a failed read keeps the last", async () => {
  let now = 0;
  let list = ["kraken"];
  let reads = 0;
  let broken = false;
  const logs: string[] = [];
  const terms: TermSource = () => {
    reads++;
    return Promise.resolve(broken ? fail(appError("server_error", { detail: "down" })) : ok(list));
  };
  const checker = createPromptCheck({ terms, now: () => now, ttlMs: 1000, log: (e) => void logs.push(e) });
  assert.equal((await checker("a kraken")).allowed, false);
  list = ["leviathan"];
  now = 999;
  assert.equal((await checker("a kraken")).allowed, false);
  assert.equal(reads, 1);
  now = 1000;
  assert.equal((await checker("a kraken")).allowed, true);
  assert.equal((await checker("a leviathan")).allowed, false);
  assert.equal(reads, 2);
  broken = true;
  now = 2000;
  assert.equal((await checker("a leviathan")).allowed, false);
  assert.deepEqual(logs, ["moderation_terms.read_failed"]);
});

Deno.test("a check asked many times at once reads the terms once", async () => {
  let reads = 0;
  const terms: TermSource = async () => {
    reads++;
    await new Promise((r) => setTimeout(r, 5));
    return ok(["kraken"]);
  };
  const checker = createPromptCheck({ terms });
  const verdicts = await Promise.all(Array.from({ length: 20 }, () => checker("kraken")));
  assert.ok(verdicts.every((v) => !v.allowed));
  assert.equal(reads, 1);
});

Deno.test("terms are transformed as prompts are, and a term that shrinks to one letter is not used", async () => {
  assert.equal(transformTerm("Yummy"), "yumy");
  assert.equal(transformTerm("Café"), "cafe");
  const checker = createPromptCheck({ terms: () => Promise.resolve(ok(["xxx", "[?|]", "c++"])) });
  assert.deepEqual(await checker("a xylophone"), { allowed: true });
  // The pattern syntax's own characters are literal in a term, and one that starts with no letter still counts.
  assert.deepEqual(await checker("a [?|] sign"), { allowed: false, source: "operator" });
  assert.deepEqual(await checker("a cat in a cave"), { allowed: true });
  assert.deepEqual(await checker("c++ code"), { allowed: false, source: "operator" });
});

Deno.test("spelled-out letters are joined only where they stand as a word of single letters", () => {
  assert.equal(joinSpelledLetters("a n u d e photo"), "anude photo");
  assert.equal(joinSpelledLetters("a n u d e photo", true), "a nude photo");
  assert.equal(joinSpelledLetters("p.o.r.n"), "porn");
  assert.equal(joinSpelledLetters("a cat on a mat"), "a cat on a mat");
  assert.equal(joinSpelledLetters("x".repeat(3000)), "x".repeat(3000));
});

Deno.test("a match lies in a number only when its whole word is digits", () => {
  assert.equal(inNumber("room 455", 5, 7), true);
  assert.equal(inNumber("room 4554", 5, 7), true);
  assert.equal(inNumber("room a455", 6, 8), false);
  assert.equal(inNumber("room 455b", 5, 7), false);
  assert.equal(inNumber("room 455", 0, 3), false);
});
