// The product's 27 styles as the public pages, the onboarding and the generator's picker present them.
// Ids, labels, descriptions and the popular/new flags are the shared vocabulary's
// (#shared/vocabulary/styles.ts); the categories, tips and preview prompts are the site's, keyed by
// style id so the compiler rejects a missing or unknown style. Previews were drawn by the built-in
// procedural renderer.
import { STYLES as STYLE_INFO, isStyleId, type StyleId, type StyleInfo } from "#shared/vocabulary/styles.ts";

export type StyleCategory = "Photo & 3D" | "Painting" | "Illustration" | "Mood & graphic";

type SiteStyleFacts = {
  category: StyleCategory;
  /** How to get the look, for any provider. */
  tip: string;
  /** The prompt the preview image was drawn from. */
  previewPrompt: string;
};

export type StyleEntry = StyleInfo & SiteStyleFacts;

export const STYLE_CATEGORIES: readonly StyleCategory[] = ["Photo & 3D", "Painting", "Illustration", "Mood & graphic"];

export const PREVIEW_SIZE_PX = 320;

export function stylePreviewSrc(id: string): string {
  return `/previews/styles/${id}.webp`;
}

const SITE_FACTS: Readonly<Record<StyleId, SiteStyleFacts>> = {
  photorealistic: {
    category: "Photo & 3D",
    tip: "Name the light and the time of day (golden hour, overcast, night) and one clear subject.",
    previewPrompt: "mountain lake at sunset",
  },
  anime: {
    category: "Illustration",
    tip: "Big skies and simple scenes read best; add a character and a season.",
    previewPrompt: "a house on green hills under a big sky",
  },
  "digital-art": {
    category: "Mood & graphic",
    tip: "Ask for glow and two contrasting colours, such as violet and cyan.",
    previewPrompt: "glowing planet over the sea at sunset",
  },
  "oil-painting": {
    category: "Painting",
    tip: "Classic landscape and still-life subjects suit the warm, textured strokes.",
    previewPrompt: "a river through a forest between rolling hills",
  },
  watercolor: {
    category: "Painting",
    tip: "Light, airy scenes with water and sky; keep the palette soft.",
    previewPrompt: "boats on a calm sea below mountains",
  },
  "pixel-art": {
    category: "Illustration",
    tip: "Game-like scenes with a few bold shapes: castles, night skies, heroes.",
    previewPrompt: "a castle on a hill at night with stars",
  },
  "3d-render": {
    category: "Photo & 3D",
    tip: "One object on a plain floor makes a clean product or mascot shot.",
    previewPrompt: "a friendly robot beside a small planet",
  },
  "comic-book": {
    category: "Illustration",
    tip: "Action and cities: name a hero, a skyline and a dramatic moment.",
    previewPrompt: "city skyline at night",
  },
  "line-art": {
    category: "Illustration",
    tip: "Outlines only: simple subjects for colouring pages, icons or tattoos.",
    previewPrompt: "a house in the forest below mountains",
  },
  isometric: {
    category: "Photo & 3D",
    tip: "Rooms, towns and small worlds seen from above at an angle.",
    previewPrompt: "a small city of houses",
  },
  fantasy: {
    category: "Mood & graphic",
    tip: "Castles, forests and fog; say what glows.",
    previewPrompt: "a castle in the fog above a river",
  },
  minimalist: {
    category: "Mood & graphic",
    tip: "One subject and one colour accent; fewer words give calmer pictures.",
    previewPrompt: "a red sun above the hills and a boat on the sea",
  },
  cyberpunk: {
    category: "Mood & graphic",
    tip: "Night, rain and a city; add a car or a lone figure for scale.",
    previewPrompt: "night city in the rain",
  },
  steampunk: {
    category: "Mood & graphic",
    tip: "Machines and vehicles: gears, brass, smoke and Victorian streets.",
    previewPrompt: "brass gears and a car in the fog",
  },
  "art-nouveau": {
    category: "Painting",
    tip: "Portraits with flowers and a decorative frame; posters and labels.",
    previewPrompt: "portrait of a woman with flowers",
  },
  impressionist: {
    category: "Painting",
    tip: "Gardens, rivers and sunlight on water.",
    previewPrompt: "a flower garden by a river",
  },
  "pop-art": {
    category: "Illustration",
    tip: "A single face or object repeated in loud colours.",
    previewPrompt: "portrait of a cat",
  },
  graffiti: {
    category: "Illustration",
    tip: "Street subjects: cars, city walls, characters in bold outlines.",
    previewPrompt: "a car in the city",
  },
  sketch: {
    category: "Illustration",
    tip: "Studies and concepts: a subject and its setting, no colour words needed.",
    previewPrompt: "a cat beside a house",
  },
  vintage: {
    category: "Photo & 3D",
    tip: "Old cars, roads and portraits; the grade does the ageing.",
    previewPrompt: "a car on a desert road",
  },
  neon: {
    category: "Mood & graphic",
    tip: "Signs and silhouettes: a few shapes against the dark.",
    previewPrompt: "a city skyline, a car and the moon at night",
  },
  gothic: {
    category: "Mood & graphic",
    tip: "Castles, moons and fog; crimson and violet accents.",
    previewPrompt: "a castle under the moon",
  },
  baroque: {
    category: "Painting",
    tip: "Portraits and still lifes in warm, dramatic light.",
    previewPrompt: "portrait with flowers",
  },
  surreal: {
    category: "Mood & graphic",
    tip: "Put ordinary things where they do not belong: planets over a desert.",
    previewPrompt: "planets floating over the desert",
  },
  abstract: {
    category: "Mood & graphic",
    tip: "Colour words matter most: name two or three.",
    previewPrompt: "red and blue sun",
  },
  cartoon: {
    category: "Illustration",
    tip: "Friendly animals and sunny scenes for kids' books and stickers.",
    previewPrompt: "a dog on the hills in the sun",
  },
  "nano-banana": {
    category: "Mood & graphic",
    tip: "Cheerful, summery scenes; with Replicate configured it uses Google's nano-banana model.",
    previewPrompt: "bananas on the beach",
  },
};

/** Every style in the vocabulary's order, with the site's facts. */
export const STYLES: readonly StyleEntry[] = STYLE_INFO.map((info) => ({ ...info, ...SITE_FACTS[info.id] }));

const ENTRY_BY_ID = new Map<string, StyleEntry>(STYLES.map((s) => [s.id, s]));

/** The entry of a style id; undefined for anything that is not one of the product's styles. */
export function styleById(id: string): StyleEntry | undefined {
  return isStyleId(id) ? ENTRY_BY_ID.get(id) : undefined;
}
