// The curated prompts behind /prompts (the editor's picks, with why each works) and /prompt-library
// (all of them, searchable). Every prompt opens the generator with its style and settings.
import type { AspectRatio } from "#shared/vocabulary/generation.ts";
import type { StyleId } from "#shared/vocabulary/styles.ts";

export type PromptCategory =
  | "Landscapes"
  | "Characters"
  | "Animals"
  | "Sci-fi & fantasy"
  | "Products & marketing"
  | "Cities & architecture"
  | "Abstract & patterns";

export type CuratedPrompt = {
  id: string;
  title: string;
  prompt: string;
  style: StyleId;
  category: PromptCategory;
  aspectRatio?: AspectRatio;
  negativePrompt?: string;
  /** Why it works; shown for the editor's picks. */
  why?: string;
  pick?: boolean;
};

export const PROMPT_CATEGORIES: readonly PromptCategory[] = [
  "Landscapes",
  "Characters",
  "Animals",
  "Sci-fi & fantasy",
  "Products & marketing",
  "Cities & architecture",
  "Abstract & patterns",
];

export const PROMPTS: readonly CuratedPrompt[] = [
  {
    id: "alpine-lake",
    title: "Alpine lake at golden hour",
    prompt: "Mountain lake at sunset, snow on the peaks, mist over still water, pine forest on the shore",
    style: "photorealistic",
    category: "Landscapes",
    aspectRatio: "16:9",
    negativePrompt: "people, text, watermark",
    why: "One subject, one time of day and two supporting details; the wide frame suits a landscape.",
    pick: true,
  },
  {
    id: "desert-road",
    title: "Desert road, faded print",
    prompt: "An empty desert road at noon, an old car, cactus by the roadside, heat haze",
    style: "vintage",
    category: "Landscapes",
    aspectRatio: "16:9",
  },
  {
    id: "harbour-morning",
    title: "Harbour in the morning",
    prompt: "Boats in a quiet harbour below mountains, pale morning light, calm sea",
    style: "watercolor",
    category: "Landscapes",
    why: 'Watercolour loves water and sky; "pale" and "calm" keep the washes soft.',
    pick: true,
  },
  {
    id: "river-valley",
    title: "River valley in oils",
    prompt: "A river winding through a forest between rolling hills, late afternoon, warm light",
    style: "oil-painting",
    category: "Landscapes",
  },
  {
    id: "snow-forest",
    title: "Snowy forest",
    prompt: "A snowy forest at dawn, a small house with a lit window, smoke from the chimney",
    style: "photorealistic",
    category: "Landscapes",
  },
  {
    id: "flower-garden",
    title: "Garden by the river",
    prompt: "A flower garden by a river in summer, sunlight on the water, red and yellow flowers",
    style: "impressionist",
    category: "Landscapes",
  },
  {
    id: "flower-portrait",
    title: "Portrait with flowers",
    prompt: "Portrait of a young woman with flowers in her hair, soft halo, ornamental border",
    style: "art-nouveau",
    category: "Characters",
    aspectRatio: "9:16",
    why: "Portraits fit a tall frame; the style supplies the border, the prompt the flowers.",
    pick: true,
  },
  {
    id: "anime-hero",
    title: "Anime hero on the hill",
    prompt: "Portrait of a girl with a red scarf on a green hill, big blue sky, summer clouds",
    style: "anime",
    category: "Characters",
    aspectRatio: "9:16",
  },
  {
    id: "baroque-noble",
    title: "Baroque portrait",
    prompt: "Portrait of a noble man in warm candle light, dark background, gold frame",
    style: "baroque",
    category: "Characters",
    aspectRatio: "9:16",
  },
  {
    id: "comic-detective",
    title: "Comic-book detective",
    prompt: "A detective in a trench coat on a rainy city street at night, dramatic shadows",
    style: "comic-book",
    category: "Characters",
  },
  {
    id: "sketch-musician",
    title: "Street musician sketch",
    prompt: "A street musician playing guitar beside a house, loose pencil lines",
    style: "sketch",
    category: "Characters",
  },
  {
    id: "sleepy-cat",
    title: "Cat in the snow",
    prompt: "A ginger cat in a snowy forest, big soft flakes, warm light from a cabin",
    style: "anime",
    category: "Animals",
    why: "A clear animal subject plus one contrasting detail (the warm cabin light) gives the picture a focus.",
    pick: true,
  },
  {
    id: "pop-cat",
    title: "Pop-art cat",
    prompt: "Portrait of a cat, four panels in loud colours, Ben-Day dots",
    style: "pop-art",
    category: "Animals",
  },
  {
    id: "happy-dog",
    title: "Happy dog",
    prompt: "A happy dog running on green hills under the sun, simple shapes",
    style: "cartoon",
    category: "Animals",
    why: 'Cartoon reads best with a single action ("running") and a simple setting.',
    pick: true,
  },
  {
    id: "birds-sunset",
    title: "Birds over the sea",
    prompt: "A flock of birds over the sea at sunset, orange and violet sky",
    style: "digital-art",
    category: "Animals",
    aspectRatio: "16:9",
  },
  {
    id: "koi-pond",
    title: "Koi pond",
    prompt: "Orange fish in a dark pond with floating flowers, seen from above",
    style: "watercolor",
    category: "Animals",
  },
  {
    id: "ringed-planet",
    title: "Ringed planet over the sea",
    prompt: "A glowing ringed planet rising over a calm sea, stars, violet and cyan light",
    style: "digital-art",
    category: "Sci-fi & fantasy",
    aspectRatio: "16:9",
    why: "Colour words (violet, cyan) steer every provider, including the built-in renderer.",
    pick: true,
  },
  {
    id: "fog-castle",
    title: "Castle in the fog",
    prompt: "A castle on a cliff in the fog above a river, light rays, drifting sparkles",
    style: "fantasy",
    category: "Sci-fi & fantasy",
  },
  {
    id: "moon-castle",
    title: "Gothic castle under the moon",
    prompt: "A gothic castle under a full moon, fog, crimson and violet shadows",
    style: "gothic",
    category: "Sci-fi & fantasy",
    aspectRatio: "9:16",
  },
  {
    id: "friendly-robot",
    title: "Friendly robot",
    prompt: "A friendly robot waving beside a small planet, soft studio light",
    style: "3d-render",
    category: "Sci-fi & fantasy",
    why: "3D Render gives clean shapes and a studio floor: good for mascots and characters.",
    pick: true,
  },
  {
    id: "brass-airship",
    title: "Brass machine",
    prompt: "A brass steam car with gears and pipes in a foggy Victorian street",
    style: "steampunk",
    category: "Sci-fi & fantasy",
  },
  {
    id: "melting-desert",
    title: "Dream desert",
    prompt: "Planets floating over a desert, a checkered floor, melting clocks",
    style: "surreal",
    category: "Sci-fi & fantasy",
  },
  {
    id: "product-hero",
    title: "Product hero shot",
    prompt: "A single perfume bottle on a plain studio floor, soft shadow, pastel background",
    style: "3d-render",
    category: "Products & marketing",
    negativePrompt: "text, logo, clutter",
    why: "Plain floor, one object and a negative prompt against clutter: a clean base for an ad.",
    pick: true,
  },
  {
    id: "summer-sale",
    title: "Summer sale banner",
    prompt: "A bright summer beach with bananas and confetti, lots of empty sky for a headline",
    style: "nano-banana",
    category: "Products & marketing",
    aspectRatio: "16:9",
  },
  {
    id: "coffee-flatlay",
    title: "Coffee flat lay",
    prompt: "A cup of coffee and a croissant on a wooden table, morning light, top view",
    style: "photorealistic",
    category: "Products & marketing",
    negativePrompt: "people, text",
  },
  {
    id: "app-icon",
    title: "App icon",
    prompt: "A simple rocket icon, one bold shape, centred, two colours",
    style: "minimalist",
    category: "Products & marketing",
  },
  {
    id: "neon-sign",
    title: "Neon sign",
    prompt: "A neon sign of a coffee cup and the moon on a dark brick wall",
    style: "neon",
    category: "Products & marketing",
    aspectRatio: "16:9",
  },
  {
    id: "rain-city",
    title: "City in the rain",
    prompt: "Night city in the rain, neon signs reflected in wet streets, a lone car",
    style: "cyberpunk",
    category: "Cities & architecture",
    aspectRatio: "16:9",
    why: "Setting, weather and one small subject for scale: the classic cyberpunk recipe.",
    pick: true,
  },
  {
    id: "iso-town",
    title: "Isometric town",
    prompt: "A small town of houses and trees on an island, seen from above at an angle",
    style: "isometric",
    category: "Cities & architecture",
  },
  {
    id: "skyline-comic",
    title: "Skyline at night",
    prompt: "City skyline at night, bold ink outlines, halftone sky",
    style: "comic-book",
    category: "Cities & architecture",
    aspectRatio: "16:9",
  },
  {
    id: "graffiti-wall",
    title: "Graffiti car",
    prompt: "A car painted on a city brick wall, spray paint drips, bold outlines",
    style: "graffiti",
    category: "Cities & architecture",
  },
  {
    id: "line-house",
    title: "House in the woods, line art",
    prompt: "A small house in the forest below mountains, clean outlines, no shading",
    style: "line-art",
    category: "Cities & architecture",
    why: 'Line art is ideal for colouring pages: keep the scene simple and say "no shading".',
    pick: true,
  },
  {
    id: "pixel-castle",
    title: "Pixel castle",
    prompt: "A castle on a hill at night with stars, retro game scene",
    style: "pixel-art",
    category: "Cities & architecture",
  },
  {
    id: "colour-field",
    title: "Colour field",
    prompt: "Circles and bars in red, blue and gold, balanced composition",
    style: "abstract",
    category: "Abstract & patterns",
    why: "For abstract work the colours are the prompt: name two or three and the arrangement.",
    pick: true,
  },
  {
    id: "calm-minimal",
    title: "Calm horizon",
    prompt: "A red sun above the hills and a boat on the sea, lots of empty space",
    style: "minimalist",
    category: "Abstract & patterns",
    aspectRatio: "16:9",
  },
  {
    id: "neon-waves",
    title: "Neon waves",
    prompt: "Glowing neon lines tracing waves and a sun on a black wall",
    style: "neon",
    category: "Abstract & patterns",
  },
];

export function matchesQuery(p: CuratedPrompt, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${p.title} ${p.prompt} ${p.style} ${p.category}`.toLowerCase();
  return words.every((w) => text.includes(w));
}
