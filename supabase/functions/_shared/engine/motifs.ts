// The words the built-in engine understands: motifs it can draw (each with synonyms, some implying more
// than one motif, e.g. "volcano" = mountain + fire) and colour words that steer the palette. Words are
// matched after light stemming (prompt.ts), so plurals and "-ing" forms need not be listed.
import { hex, type Rgb } from "./color.ts";

export const MOTIF_IDS = [
  "sky",
  "sea",
  "beach",
  "mountain",
  "hills",
  "city",
  "forest",
  "night",
  "sunset",
  "portrait",
  "cat",
  "dog",
  "bird",
  "animal",
  "fish",
  "flower",
  "space",
  "planet",
  "stars",
  "desert",
  "snow",
  "rain",
  "fire",
  "river",
  "castle",
  "robot",
  "car",
  "house",
  "moon",
  "sun",
  "boat",
  "rainbow",
  "fog",
  "banana",
  "gears",
] as const;

export type MotifId = typeof MOTIF_IDS[number];

/** Synonyms per motif; a word listed under several motifs adds all of them. */
const SYNONYMS: Record<MotifId, readonly string[]> = {
  sky: ["sky", "cloud", "clouds", "cloudy", "heaven", "skies", "airy"],
  sea: ["sea", "ocean", "water", "wave", "lake", "seascape", "bay", "surf", "marine", "island", "coast", "harbor", "harbour", "pond", "reef"],
  beach: ["beach", "shore", "seaside", "tropical", "island", "palm", "sand", "coast"],
  mountain: ["mountain", "peak", "alps", "alpine", "cliff", "summit", "volcano", "himalaya", "mount", "waterfall", "canyon"],
  hills: ["hill", "meadow", "field", "grass", "countryside", "farm", "valley", "landscape", "prairie", "grassland", "garden", "park", "nature"],
  city: ["city", "cityscape", "skyline", "town", "urban", "street", "building", "skyscraper", "downtown", "metropolis", "tokyo", "york", "cyberpunk"],
  forest: ["forest", "tree", "woods", "wood", "jungle", "pine", "oak", "woodland", "grove", "trees", "rainforest", "leaf", "leaves"],
  night: ["night", "midnight", "nighttime", "dark", "nocturnal"],
  sunset: ["sunset", "sunrise", "dusk", "dawn", "twilight", "golden hour", "afterglow", "evening"],
  portrait: [
    "portrait", "face", "person", "man", "woman", "girl", "boy", "child", "kid", "people", "selfie", "character",
    "warrior", "princess", "prince", "king", "queen", "wizard", "witch", "knight", "astronaut", "lady", "human",
    "headshot", "hero", "samurai", "ninja", "elf", "avatar",
  ],
  cat: ["cat", "kitten", "kitty", "feline", "lion", "tiger"],
  dog: ["dog", "puppy", "pup", "wolf", "wolves", "fox", "canine", "doggo"],
  bird: ["bird", "eagle", "owl", "crow", "raven", "seagull", "gull", "dove", "parrot", "flock", "swallow", "hawk"],
  animal: ["animal", "creature", "deer", "horse", "unicorn", "elk", "stag", "reindeer", "wildlife", "beast", "dragon", "bear", "pony"],
  fish: ["fish", "whale", "dolphin", "shark", "koi", "goldfish", "salmon"],
  flower: ["flower", "rose", "tulip", "bloom", "blossom", "daisy", "sunflower", "lily", "floral", "petal", "lotus", "orchid", "poppy", "bouquet", "garden"],
  space: ["space", "galaxy", "cosmos", "cosmic", "universe", "nebula", "outer space", "astronaut", "orbit", "interstellar", "milky way", "celestial"],
  planet: ["planet", "saturn", "jupiter", "mars", "exoplanet", "world"],
  stars: ["star", "starry", "starlight", "constellation", "milky way", "stellar", "starfield"],
  desert: ["desert", "dune", "sahara", "cactus", "cacti", "arid", "oasis", "canyon"],
  snow: ["snow", "snowy", "winter", "ice", "icy", "frozen", "frost", "arctic", "christmas", "snowfall", "blizzard", "glacier", "snowman"],
  rain: ["rain", "rainy", "storm", "stormy", "thunder", "thunderstorm", "lightning", "drizzle", "downpour", "monsoon"],
  fire: ["fire", "flame", "burning", "burn", "campfire", "bonfire", "blaze", "inferno", "lava", "volcano", "dragon", "torch", "ember"],
  river: ["river", "stream", "creek", "brook", "waterfall", "canal"],
  castle: ["castle", "palace", "fortress", "kingdom", "tower", "citadel", "cathedral", "fort", "temple", "church"],
  robot: ["robot", "android", "cyborg", "mech", "mecha", "droid", "automaton", "bot", "ai"],
  car: ["car", "vehicle", "truck", "racing", "taxi", "automobile", "racecar", "jeep", "van", "motorcycle"],
  house: ["house", "home", "cottage", "cabin", "village", "hut", "farmhouse", "barn", "chalet", "villa", "mansion", "farm"],
  moon: ["moon", "lunar", "crescent", "moonlight", "moonlit", "full moon"],
  sun: ["sun", "sunny", "sunshine", "sunlight", "daylight", "summer", "solar", "sunlit", "noon"],
  boat: ["boat", "ship", "sailboat", "sail", "yacht", "pirate", "canoe", "sailing", "vessel", "ferry"],
  rainbow: ["rainbow", "prism", "spectrum"],
  fog: ["fog", "foggy", "mist", "misty", "haze", "hazy", "smoke", "ethereal"],
  banana: ["banana", "fruit", "nano banana"],
  gears: ["gear", "cog", "clockwork", "machinery", "clock", "mechanical", "steampunk", "engine"],
};

/** Colour words, and the colour each pulls the palette toward. */
export const COLOR_WORDS: Record<string, Rgb> = {
  red: hex("#d7263d"),
  crimson: hex("#b3123a"),
  scarlet: hex("#e0301e"),
  maroon: hex("#7a1f2b"),
  orange: hex("#f57c1f"),
  amber: hex("#f2a81d"),
  yellow: hex("#f5d21f"),
  gold: hex("#d9a520"),
  golden: hex("#e0b030"),
  green: hex("#2e9e44"),
  emerald: hex("#13a36b"),
  lime: hex("#9bd22c"),
  olive: hex("#7d8a2c"),
  teal: hex("#138f8f"),
  turquoise: hex("#2ac7c0"),
  cyan: hex("#20c5e8"),
  aqua: hex("#3fd6e0"),
  blue: hex("#2b6fd6"),
  azure: hex("#3f92f0"),
  navy: hex("#1c2e6b"),
  cobalt: hex("#2146b8"),
  indigo: hex("#3f2b96"),
  purple: hex("#8a3bc7"),
  violet: hex("#7e4de0"),
  lavender: hex("#b79be8"),
  magenta: hex("#d42fb8"),
  pink: hex("#f273b5"),
  brown: hex("#7b4a2a"),
  black: hex("#15151a"),
  white: hex("#f4f4f0"),
  gray: hex("#8a8d93"),
  grey: hex("#8a8d93"),
  silver: hex("#c0c6cf"),
};

/** Word (already lower-case) -> motifs it names. Multi-word phrases are keys with one space. */
export const MOTIF_INDEX: ReadonlyMap<string, readonly MotifId[]> = (() => {
  const index = new Map<string, MotifId[]>();
  for (const id of MOTIF_IDS) {
    for (const word of SYNONYMS[id]) {
      const list = index.get(word) ?? [];
      if (!list.includes(id)) list.push(id);
      index.set(word, list);
    }
  }
  return index;
})();

/** Human names for captions. */
export const MOTIF_LABELS: Record<MotifId, string> = Object.fromEntries(
  MOTIF_IDS.map((id) => [id, id === "hills" ? "rolling hills" : id === "gears" ? "gears" : id]),
) as Record<MotifId, string>;
