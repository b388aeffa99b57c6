// The product's 27 styles (docs/spec.md §3): ids in the spec's order, with the label, one-line description and
// badges every surface shows. The engine adds how it draws each (engine/styles.ts); the site adds categories,
// tips and preview prompts (src/lib/style-catalog.ts). SQL repeats the ids in `public.is_style_id`; a db test
// proves the two lists are equal.

import { STYLE_IDS, type StyleId } from "./style-ids.ts";

export { STYLE_IDS, type StyleId };

export interface StyleInfo {
  id: StyleId;
  label: string;
  description: string;
  /** The fire badge. */
  isPopular: boolean;
  /** The NEW badge. */
  isNew: boolean;
}

const POPULAR: ReadonlySet<StyleId> = new Set<StyleId>([
  "photorealistic",
  "anime",
  "digital-art",
  "3d-render",
  "fantasy",
  "neon",
  "nano-banana",
]);
const NEW: ReadonlySet<StyleId> = new Set<StyleId>(["nano-banana"]);

const TEXT: Readonly<Record<StyleId, readonly [label: string, description: string]>> = {
  photorealistic: ["Photorealistic", "Natural light, smooth gradients, soft haze and fine film grain."],
  anime: ["Anime", "Cel-shaded shapes, crisp outlines and big luminous sky gradients."],
  "digital-art": ["Digital Art", "Vivid saturated colour, glowing light and crisp digital edges."],
  "oil-painting": ["Oil Painting", "Thick directional brush strokes and canvas texture in rich, warm pigments."],
  watercolor: ["Watercolor", "Soft transparent washes that bleed at the edges, on white grained paper."],
  "pixel-art": ["Pixel Art", "A coarse pixel grid in a 16-colour retro palette with ordered dithering."],
  "3d-render": ["3D Render", "Smooth plastic shapes with bevelled lighting, soft shadows and a studio floor."],
  "comic-book": ["Comic Book", "Bold ink outlines, flat colours and halftone dot shading."],
  "line-art": ["Line Art", "Clean black ink contours on white paper, no fill."],
  isometric: ["Isometric", "A tidy diorama of isometric blocks with three-tone face shading."],
  fantasy: ["Fantasy", "Enchanted twilight, mist, light rays and drifting sparkles."],
  minimalist: ["Minimalist", "A few flat shapes, lots of calm negative space and a five-colour palette."],
  cyberpunk: ["Cyberpunk", "Rain-soaked neon city at night in magenta and cyan, with bloom and scanlines."],
  steampunk: ["Steampunk", "Brass, copper and sepia machinery with gears and smoky haze."],
  "art-nouveau": ["Art Nouveau", "Flowing outlines, flat muted colours, a halo and an ornamental border."],
  impressionist: ["Impressionist", "Short broken dabs of light, pure colour that mixes in the eye."],
  "pop-art": ["Pop Art", "Four repeated panels in loud flat colours with Ben-Day dots."],
  graffiti: ["Graffiti", "Spray paint on a brick wall: bold outlines, overspray and drips."],
  sketch: ["Sketch", "Graphite pencil hatching and loose contour lines on cream paper."],
  vintage: ["Vintage", "A faded sepia photograph with grain, scratches and a dark vignette."],
  neon: ["Neon", "Glowing neon tubes tracing the scene on a black wall."],
  gothic: ["Gothic", "Moonlit dark stone, crimson and violet shadows, fog and a pointed arch."],
  baroque: ["Baroque", "Dramatic chiaroscuro, warm gold light and an ornate gilded frame."],
  surreal: ["Surreal", "Dream logic: melting forms, floating objects, a checkered floor and odd skies."],
  abstract: ["Abstract", "Non-figurative composition of circles, bars and arcs in the prompt's colours."],
  cartoon: ["Cartoon", "Bright flat colours, thick rounded outlines and simple two-tone shading."],
  "nano-banana": ["Nano Banana", "Playful sunny yellows, bubbly shapes, confetti and a banana or two."],
};

/** Every style in the spec's order (the picker shows the first 6). */
export const STYLES: readonly StyleInfo[] = STYLE_IDS.map((id) => ({
  id,
  label: TEXT[id][0],
  description: TEXT[id][1],
  isPopular: POPULAR.has(id),
  isNew: NEW.has(id),
}));

export const STYLE_BY_ID: Readonly<Record<StyleId, StyleInfo>> = Object.fromEntries(
  STYLES.map((s) => [s.id, s]),
) as Record<StyleId, StyleInfo>;

export function isStyleId(value: unknown): value is StyleId {
  return typeof value === "string" && (STYLE_IDS as readonly string[]).includes(value);
}
