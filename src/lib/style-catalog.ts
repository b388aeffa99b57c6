// The product's 27 styles as the public pages, the onboarding and the generator's picker present them.
// Ids, labels, descriptions and the popular/new flags mirror the engine's own list
// (supabase/functions/_shared/engine/styles.ts; a unit test keeps them equal); the categories, tips and
// preview prompts are the site's. Previews were drawn by the built-in procedural renderer.

export type StyleCategory = "Photo & 3D" | "Painting" | "Illustration" | "Mood & graphic";

export type StyleEntry = {
  id: string;
  label: string;
  description: string;
  isPopular: boolean;
  isNew: boolean;
  category: StyleCategory;
  /** How to get the look, for any provider. */
  tip: string;
  /** The prompt the preview image was drawn from. */
  previewPrompt: string;
};

export const STYLE_CATEGORIES: readonly StyleCategory[] = ["Photo & 3D", "Painting", "Illustration", "Mood & graphic"];

/** The built-in engine's honest name, shown beside every preview it drew. */
export const PREVIEW_CREDIT = "Preview drawn by the built-in procedural renderer (not an AI model)";

export const PREVIEW_SIZE_PX = 320;

export function stylePreviewSrc(id: string): string {
  return `/previews/styles/${id}.webp`;
}

export const STYLES: readonly StyleEntry[] = [
  {
    id: "photorealistic",
    label: "Photorealistic",
    description: "Natural light, smooth gradients, soft haze and fine film grain.",
    isPopular: true,
    isNew: false,
    category: "Photo & 3D",
    tip: "Name the light and the time of day (golden hour, overcast, night) and one clear subject.",
    previewPrompt: "mountain lake at sunset",
  },
  {
    id: "anime",
    label: "Anime",
    description: "Cel-shaded shapes, crisp outlines and big luminous sky gradients.",
    isPopular: true,
    isNew: false,
    category: "Illustration",
    tip: "Big skies and simple scenes read best; add a character and a season.",
    previewPrompt: "a house on green hills under a big sky",
  },
  {
    id: "digital-art",
    label: "Digital Art",
    description: "Vivid saturated colour, glowing light and crisp digital edges.",
    isPopular: true,
    isNew: false,
    category: "Mood & graphic",
    tip: "Ask for glow and two contrasting colours, such as violet and cyan.",
    previewPrompt: "glowing planet over the sea at sunset",
  },
  {
    id: "oil-painting",
    label: "Oil Painting",
    description: "Thick directional brush strokes and canvas texture in rich, warm pigments.",
    isPopular: false,
    isNew: false,
    category: "Painting",
    tip: "Classic landscape and still-life subjects suit the warm, textured strokes.",
    previewPrompt: "a river through a forest between rolling hills",
  },
  {
    id: "watercolor",
    label: "Watercolor",
    description: "Soft transparent washes that bleed at the edges, on white grained paper.",
    isPopular: false,
    isNew: false,
    category: "Painting",
    tip: "Light, airy scenes with water and sky; keep the palette soft.",
    previewPrompt: "boats on a calm sea below mountains",
  },
  {
    id: "pixel-art",
    label: "Pixel Art",
    description: "A coarse pixel grid in a 16-colour retro palette with ordered dithering.",
    isPopular: false,
    isNew: false,
    category: "Illustration",
    tip: "Game-like scenes with a few bold shapes: castles, night skies, heroes.",
    previewPrompt: "a castle on a hill at night with stars",
  },
  {
    id: "3d-render",
    label: "3D Render",
    description: "Smooth plastic shapes with bevelled lighting, soft shadows and a studio floor.",
    isPopular: true,
    isNew: false,
    category: "Photo & 3D",
    tip: "One object on a plain floor makes a clean product or mascot shot.",
    previewPrompt: "a friendly robot beside a small planet",
  },
  {
    id: "comic-book",
    label: "Comic Book",
    description: "Bold ink outlines, flat colours and halftone dot shading.",
    isPopular: false,
    isNew: false,
    category: "Illustration",
    tip: "Action and cities: name a hero, a skyline and a dramatic moment.",
    previewPrompt: "city skyline at night",
  },
  {
    id: "line-art",
    label: "Line Art",
    description: "Clean black ink contours on white paper, no fill.",
    isPopular: false,
    isNew: false,
    category: "Illustration",
    tip: "Outlines only: simple subjects for colouring pages, icons or tattoos.",
    previewPrompt: "a house in the forest below mountains",
  },
  {
    id: "isometric",
    label: "Isometric",
    description: "A tidy diorama of isometric blocks with three-tone face shading.",
    isPopular: false,
    isNew: false,
    category: "Photo & 3D",
    tip: "Rooms, towns and small worlds seen from above at an angle.",
    previewPrompt: "a small city of houses",
  },
  {
    id: "fantasy",
    label: "Fantasy",
    description: "Enchanted twilight, mist, light rays and drifting sparkles.",
    isPopular: true,
    isNew: false,
    category: "Mood & graphic",
    tip: "Castles, forests and fog; say what glows.",
    previewPrompt: "a castle in the fog above a river",
  },
  {
    id: "minimalist",
    label: "Minimalist",
    description: "A few flat shapes, lots of calm negative space and a five-colour palette.",
    isPopular: false,
    isNew: false,
    category: "Mood & graphic",
    tip: "One subject and one colour accent; fewer words give calmer pictures.",
    previewPrompt: "a red sun above the hills and a boat on the sea",
  },
  {
    id: "cyberpunk",
    label: "Cyberpunk",
    description: "Rain-soaked neon city at night in magenta and cyan, with bloom and scanlines.",
    isPopular: false,
    isNew: false,
    category: "Mood & graphic",
    tip: "Night, rain and a city; add a car or a lone figure for scale.",
    previewPrompt: "night city in the rain",
  },
  {
    id: "steampunk",
    label: "Steampunk",
    description: "Brass, copper and sepia machinery with gears and smoky haze.",
    isPopular: false,
    isNew: false,
    category: "Mood & graphic",
    tip: "Machines and vehicles: gears, brass, smoke and Victorian streets.",
    previewPrompt: "brass gears and a car in the fog",
  },
  {
    id: "art-nouveau",
    label: "Art Nouveau",
    description: "Flowing outlines, flat muted colours, a halo and an ornamental border.",
    isPopular: false,
    isNew: false,
    category: "Painting",
    tip: "Portraits with flowers and a decorative frame; posters and labels.",
    previewPrompt: "portrait of a woman with flowers",
  },
  {
    id: "impressionist",
    label: "Impressionist",
    description: "Short broken dabs of light, pure colour that mixes in the eye.",
    isPopular: false,
    isNew: false,
    category: "Painting",
    tip: "Gardens, rivers and sunlight on water.",
    previewPrompt: "a flower garden by a river",
  },
  {
    id: "pop-art",
    label: "Pop Art",
    description: "Four repeated panels in loud flat colours with Ben-Day dots.",
    isPopular: false,
    isNew: false,
    category: "Illustration",
    tip: "A single face or object repeated in loud colours.",
    previewPrompt: "portrait of a cat",
  },
  {
    id: "graffiti",
    label: "Graffiti",
    description: "Spray paint on a brick wall: bold outlines, overspray and drips.",
    isPopular: false,
    isNew: false,
    category: "Illustration",
    tip: "Street subjects: cars, city walls, characters in bold outlines.",
    previewPrompt: "a car in the city",
  },
  {
    id: "sketch",
    label: "Sketch",
    description: "Graphite pencil hatching and loose contour lines on cream paper.",
    isPopular: false,
    isNew: false,
    category: "Illustration",
    tip: "Studies and concepts: a subject and its setting, no colour words needed.",
    previewPrompt: "a cat beside a house",
  },
  {
    id: "vintage",
    label: "Vintage",
    description: "A faded sepia photograph with grain, scratches and a dark vignette.",
    isPopular: false,
    isNew: false,
    category: "Photo & 3D",
    tip: "Old cars, roads and portraits; the grade does the ageing.",
    previewPrompt: "a car on a desert road",
  },
  {
    id: "neon",
    label: "Neon",
    description: "Glowing neon tubes tracing the scene on a black wall.",
    isPopular: true,
    isNew: false,
    category: "Mood & graphic",
    tip: "Signs and silhouettes: a few shapes against the dark.",
    previewPrompt: "a city skyline, a car and the moon at night",
  },
  {
    id: "gothic",
    label: "Gothic",
    description: "Moonlit dark stone, crimson and violet shadows, fog and a pointed arch.",
    isPopular: false,
    isNew: false,
    category: "Mood & graphic",
    tip: "Castles, moons and fog; crimson and violet accents.",
    previewPrompt: "a castle under the moon",
  },
  {
    id: "baroque",
    label: "Baroque",
    description: "Dramatic chiaroscuro, warm gold light and an ornate gilded frame.",
    isPopular: false,
    isNew: false,
    category: "Painting",
    tip: "Portraits and still lifes in warm, dramatic light.",
    previewPrompt: "portrait with flowers",
  },
  {
    id: "surreal",
    label: "Surreal",
    description: "Dream logic: melting forms, floating objects, a checkered floor and odd skies.",
    isPopular: false,
    isNew: false,
    category: "Mood & graphic",
    tip: "Put ordinary things where they do not belong: planets over a desert.",
    previewPrompt: "planets floating over the desert",
  },
  {
    id: "abstract",
    label: "Abstract",
    description: "Non-figurative composition of circles, bars and arcs in the prompt's colours.",
    isPopular: false,
    isNew: false,
    category: "Mood & graphic",
    tip: "Colour words matter most: name two or three.",
    previewPrompt: "red and blue sun",
  },
  {
    id: "cartoon",
    label: "Cartoon",
    description: "Bright flat colours, thick rounded outlines and simple two-tone shading.",
    isPopular: false,
    isNew: false,
    category: "Illustration",
    tip: "Friendly animals and sunny scenes for kids' books and stickers.",
    previewPrompt: "a dog on the hills in the sun",
  },
  {
    id: "nano-banana",
    label: "Nano Banana",
    description: "Playful sunny yellows, bubbly shapes, confetti and a banana or two.",
    isPopular: true,
    isNew: true,
    category: "Mood & graphic",
    tip: "Cheerful, summery scenes; with Replicate configured it uses Google's nano-banana model.",
    previewPrompt: "bananas on the beach",
  },
];

export const STYLE_COUNT = STYLES.length;

export function styleById(id: string): StyleEntry | undefined {
  return STYLES.find((s) => s.id === id);
}
