// What the built-in engine draws for common subjects: a table of everyday prompts with the motifs the
// renderer must draw and those it must not (a "fishing boat" is a boat, not a fish), checked through
// describeRender over several seeds, since a seed frames the scene but never changes its subject.
import assert from "node:assert/strict";
import { describeRender } from "../../../../supabase/functions/_shared/engine/render.ts";
import { parsePrompt } from "../../../../supabase/functions/_shared/engine/prompt.ts";
import type { MotifId } from "../../../../supabase/functions/_shared/engine/motifs.ts";

interface Row {
  prompt: string;
  draws: MotifId[];
  not?: MotifId[];
}

const SUBJECTS: Row[] = [
  { prompt: "a red fishing boat at dawn", draws: ["boat", "sea", "sunset"], not: ["fish"] },
  { prompt: "a fishing boat", draws: ["boat", "sea"], not: ["fish"] },
  { prompt: "sailboat at sunset", draws: ["boat", "sea", "sunset"] },
  { prompt: "ships in a harbour", draws: ["boat", "sea"] },
  { prompt: "pirate ship in a storm", draws: ["boat", "sea", "rain"] },
  { prompt: "a fishing village by the sea", draws: ["house", "sea"], not: ["fish"] },
  { prompt: "a man fishing on a lake", draws: ["portrait", "sea"] },
  { prompt: "koi pond", draws: ["fish", "sea"] },
  { prompt: "a whale in the ocean", draws: ["fish", "sea"] },
  { prompt: "a lighthouse on a rocky coast", draws: ["lighthouse", "sea"], not: ["castle", "house"] },
  { prompt: "lighthouse", draws: ["lighthouse", "sea"] },
  { prompt: "cat on a sofa", draws: ["cat"] },
  { prompt: "house cat sleeping", draws: ["cat"], not: ["house"] },
  { prompt: "a dog house", draws: ["house"], not: ["dog"] },
  { prompt: "a bird house in a garden", draws: ["house", "flower"], not: ["bird"] },
  { prompt: "a cat and a dog", draws: ["cat", "dog"] },
  { prompt: "a dog playing in the park", draws: ["dog", "hills"] },
  { prompt: "a fox in the snow", draws: ["fox", "snow"], not: ["dog"] },
  { prompt: "a wolf howling at the moon", draws: ["dog", "moon", "night"] },
  { prompt: "a horse running in a field", draws: ["animal", "hills"] },
  { prompt: "a deer in the woods", draws: ["animal", "forest"] },
  { prompt: "a dragon breathing fire", draws: ["animal", "fire"] },
  { prompt: "an owl in the forest at night", draws: ["bird", "forest", "night"] },
  { prompt: "a bird on a branch", draws: ["bird", "forest"] },
  { prompt: "mountain lake", draws: ["mountain", "sea"] },
  { prompt: "an erupting volcano", draws: ["mountain", "fire"] },
  { prompt: "a waterfall in the jungle", draws: ["mountain", "river", "forest"] },
  { prompt: "city skyline at night", draws: ["city", "night"] },
  { prompt: "city street in the rain", draws: ["city", "rain"] },
  { prompt: "a fire truck in the city", draws: ["car", "city"], not: ["fire"] },
  { prompt: "a red sports car", draws: ["car"] },
  { prompt: "portrait of a woman", draws: ["portrait"] },
  { prompt: "a girl with an umbrella in the rain", draws: ["portrait", "rain"] },
  { prompt: "astronaut floating in space", draws: ["portrait", "space"] },
  { prompt: "a knight in front of a castle", draws: ["portrait", "castle"] },
  { prompt: "a castle on a hill", draws: ["castle", "hills"] },
  { prompt: "a burning house", draws: ["house", "fire"] },
  { prompt: "a tree house in the forest", draws: ["house", "forest"] },
  { prompt: "a cozy cabin in the snowy woods", draws: ["house", "snow", "forest"] },
  { prompt: "a village by a river", draws: ["house", "river"] },
  { prompt: "a cottage with a flower garden", draws: ["house", "flower"] },
  { prompt: "bowl of fruit", draws: ["banana"] },
  { prompt: "a bouquet of roses", draws: ["flower"] },
  { prompt: "sunflower field in summer", draws: ["flower", "hills", "sun"] },
  { prompt: "rainbow over a meadow", draws: ["rainbow", "hills"] },
  { prompt: "a foggy forest", draws: ["fog", "forest"] },
  { prompt: "tropical beach with palm trees", draws: ["beach", "sea"] },
  { prompt: "desert with cactus at sunset", draws: ["desert", "sunset"] },
  { prompt: "campfire under the stars", draws: ["fire", "stars", "night"] },
  { prompt: "a robot in a factory", draws: ["robot"] },
  { prompt: "planet saturn", draws: ["planet"] },
  { prompt: "steampunk clockwork", draws: ["gears"] },
];

Deno.test("draws the subject a common prompt names, whatever the seed", () => {
  const wrong: string[] = [];
  for (const { prompt, draws, not = [] } of SUBJECTS) {
    for (const seed of [1, 2, 3, 4, 917_331]) {
      const d = describeRender({ prompt, style: "photorealistic", width: 64, height: 64, seed });
      const drawn = new Set<string>([...d.motifs, d.timeOfDay]);
      const missing = draws.filter((m) => !drawn.has(m));
      const extra = not.filter((m) => drawn.has(m));
      if (missing.length > 0 || extra.length > 0) {
        wrong.push(`"${prompt}" seed ${seed}: drew ${[...drawn].join(", ")}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("in a compound of two things the last word is the subject, and a colour or a 'no' reaches it", () => {
  assert.deepEqual(parsePrompt("fishing boat").motifs, ["boat"]);
  assert.deepEqual(parsePrompt("house cat").motifs, ["cat"]);
  // A thing before a place keeps both; fire qualifies what burns.
  assert.deepEqual(parsePrompt("koi pond").motifs, ["fish", "sea"]);
  assert.deepEqual(parsePrompt("burning house").motifs, ["fire", "house"]);
  // A word in -ing after a thing is what it does, not a compound.
  assert.deepEqual(parsePrompt("a man fishing").motifs, ["portrait", "fish"]);

  const red = parsePrompt("a red fishing boat");
  assert.deepEqual(Object.keys(red.motifColors), ["boat"]);
  assert.deepEqual(parsePrompt("a harbour with no fishing boats").bannedMotifs, ["boat"]);
  assert.deepEqual(parsePrompt("a harbour", "fishing boats").bannedMotifs, ["boat"]);
});
