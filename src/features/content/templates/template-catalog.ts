// Templates: a prompt pattern with one blank ({subject}) and the settings that suit a job, so a
// person types only what is theirs ("running shoes") and opens a ready generator.
import type { AspectRatio, Quality } from "#shared/vocabulary/generation.ts";
import type { StyleId } from "#shared/vocabulary/styles.ts";

export type TemplateCategory = "Marketing" | "Social media" | "Print & posters" | "Characters & avatars" | "Web & apps";

export type Template = {
  id: string;
  title: string;
  category: TemplateCategory;
  useCase: string;
  /** The prompt, with {subject} where the person's words go. */
  pattern: string;
  subjectLabel: string;
  exampleSubject: string;
  style: StyleId;
  aspectRatio: AspectRatio;
  quality: Quality;
  negativePrompt?: string;
  featured?: boolean;
};

export const TEMPLATE_CATEGORIES: readonly TemplateCategory[] = [
  "Marketing",
  "Social media",
  "Print & posters",
  "Characters & avatars",
  "Web & apps",
];

export const TEMPLATES: readonly Template[] = [
  {
    id: "product-studio",
    title: "Product on a studio floor",
    category: "Marketing",
    useCase: "Shop listings and ads with a clean background",
    pattern: "A single {subject} on a plain studio floor, soft shadow, pastel background, centred",
    subjectLabel: "Product",
    exampleSubject: "perfume bottle",
    style: "3d-render",
    aspectRatio: "1:1",
    quality: "high",
    negativePrompt: "text, logo, clutter, people",
    featured: true,
  },
  {
    id: "product-lifestyle",
    title: "Product in daylight",
    category: "Marketing",
    useCase: "Lifestyle shots for landing pages",
    pattern: "A {subject} on a wooden table by a window, morning light, soft focus background",
    subjectLabel: "Product",
    exampleSubject: "ceramic coffee cup",
    style: "photorealistic",
    aspectRatio: "16:9",
    quality: "high",
    negativePrompt: "text, watermark",
  },
  {
    id: "sale-banner",
    title: "Seasonal sale banner",
    category: "Marketing",
    useCase: "Banners with room for a headline",
    pattern: "A bright {subject} scene with confetti, lots of empty sky on the left for a headline",
    subjectLabel: "Season or theme",
    exampleSubject: "summer beach",
    style: "nano-banana",
    aspectRatio: "16:9",
    quality: "standard",
    negativePrompt: "text, letters",
    featured: true,
  },
  {
    id: "instagram-square",
    title: "Feed post",
    category: "Social media",
    useCase: "A square post that stops the scroll",
    pattern: "{subject}, bold colours, strong central composition, high contrast",
    subjectLabel: "What the post is about",
    exampleSubject: "a fox reading a book under a tree",
    style: "digital-art",
    aspectRatio: "1:1",
    quality: "standard",
    featured: true,
  },
  {
    id: "story-vertical",
    title: "Story background",
    category: "Social media",
    useCase: "Vertical backgrounds for stories and reels",
    pattern: "{subject}, vertical composition, calm top third left empty for text",
    subjectLabel: "Scene",
    exampleSubject: "mountain lake at sunrise",
    style: "watercolor",
    aspectRatio: "9:16",
    quality: "standard",
    negativePrompt: "text",
  },
  {
    id: "quote-card",
    title: "Quote card backdrop",
    category: "Social media",
    useCase: "Soft backgrounds behind a quote",
    pattern: "A soft minimalist {subject}, muted colours, wide empty space in the centre",
    subjectLabel: "Motif",
    exampleSubject: "sun over the sea",
    style: "minimalist",
    aspectRatio: "1:1",
    quality: "standard",
    negativePrompt: "text, clutter",
  },
  {
    id: "event-poster",
    title: "Event poster",
    category: "Print & posters",
    useCase: "Posters for gigs, fairs and meetups",
    pattern:
      "A dramatic poster illustration of {subject}, bold outlines, strong silhouette, space at the bottom for details",
    subjectLabel: "Event theme",
    exampleSubject: "a jazz night in the city",
    style: "comic-book",
    aspectRatio: "9:16",
    quality: "high",
    negativePrompt: "text, letters",
    featured: true,
  },
  {
    id: "art-print",
    title: "Wall art print",
    category: "Print & posters",
    useCase: "Paintings to print and frame",
    pattern: "{subject}, painted with thick brush strokes, warm light, museum quality",
    subjectLabel: "Scene",
    exampleSubject: "a river through autumn hills",
    style: "oil-painting",
    aspectRatio: "9:16",
    quality: "ultra",
  },
  {
    id: "colouring-page",
    title: "Colouring page",
    category: "Print & posters",
    useCase: "Printable pages for kids and classes",
    pattern: "A simple {subject}, clean black outlines on white, no shading, large shapes",
    subjectLabel: "Subject",
    exampleSubject: "castle with a dragon",
    style: "line-art",
    aspectRatio: "9:16",
    quality: "standard",
    negativePrompt: "colour, shading, grey",
    featured: true,
  },
  {
    id: "postcard",
    title: "Vintage postcard",
    category: "Print & posters",
    useCase: "Travel and greeting cards",
    pattern: "An old postcard photo of {subject}, sepia tones, faded edges",
    subjectLabel: "Place",
    exampleSubject: "a seaside town",
    style: "vintage",
    aspectRatio: "16:9",
    quality: "standard",
  },
  {
    id: "avatar-anime",
    title: "Anime avatar",
    category: "Characters & avatars",
    useCase: "Profile pictures with a personal touch",
    pattern: "Portrait of {subject}, head and shoulders, big soft sky behind, friendly expression",
    subjectLabel: "Who",
    exampleSubject: "a young woman with short red hair",
    style: "anime",
    aspectRatio: "1:1",
    quality: "high",
    negativePrompt: "text, extra people",
    featured: true,
  },
  {
    id: "mascot-3d",
    title: "Brand mascot",
    category: "Characters & avatars",
    useCase: "A friendly mascot for a product or team",
    pattern: "A cute {subject} mascot, smooth rounded shapes, soft studio light, plain background",
    subjectLabel: "Character",
    exampleSubject: "robot",
    style: "3d-render",
    aspectRatio: "1:1",
    quality: "high",
    negativePrompt: "text, clutter",
  },
  {
    id: "game-sprite",
    title: "Retro game scene",
    category: "Characters & avatars",
    useCase: "Pixel art for games and streams",
    pattern: "A retro game scene with {subject}, 16-colour palette, clear silhouettes",
    subjectLabel: "Hero or scene",
    exampleSubject: "a knight before a castle at night",
    style: "pixel-art",
    aspectRatio: "16:9",
    quality: "standard",
  },
  {
    id: "pet-portrait",
    title: "Pet portrait",
    category: "Characters & avatars",
    useCase: "Fun portraits of your pet",
    pattern: "Portrait of {subject}, repeated in four loud colour panels",
    subjectLabel: "Pet",
    exampleSubject: "a grey cat",
    style: "pop-art",
    aspectRatio: "1:1",
    quality: "standard",
  },
  {
    id: "hero-image",
    title: "Website hero image",
    category: "Web & apps",
    useCase: "Wide header images for landing pages",
    pattern: "A wide panoramic view of {subject}, calm left half for a headline, soft gradient sky",
    subjectLabel: "Scene",
    exampleSubject: "a glowing planet over the sea",
    style: "digital-art",
    aspectRatio: "16:9",
    quality: "high",
    negativePrompt: "text, logo",
    featured: true,
  },
  {
    id: "blog-cover",
    title: "Blog cover",
    category: "Web & apps",
    useCase: "Cover images for articles",
    pattern: "An isometric illustration of {subject}, tidy blocks, three-tone shading",
    subjectLabel: "Topic",
    exampleSubject: "a small city of houses and trees",
    style: "isometric",
    aspectRatio: "16:9",
    quality: "standard",
  },
  {
    id: "app-splash",
    title: "App splash screen",
    category: "Web & apps",
    useCase: "Tall splash and onboarding artwork",
    pattern: "{subject} at night, glowing neon outlines on black, centred",
    subjectLabel: "Motif",
    exampleSubject: "a rocket and the moon",
    style: "neon",
    aspectRatio: "9:16",
    quality: "standard",
  },
  {
    id: "error-page",
    title: "Friendly error illustration",
    category: "Web & apps",
    useCase: "404 and empty-state pictures",
    pattern: "A cartoon {subject} looking lost, bright flat colours, simple background",
    subjectLabel: "Character",
    exampleSubject: "dog with a map",
    style: "cartoon",
    aspectRatio: "1:1",
    quality: "standard",
  },
];

/** The template's prompt with the person's subject in the blank (the example when left empty). */
export function fillTemplate(t: Template, subject: string): string {
  const words = subject.trim() || t.exampleSubject;
  const filled = t.pattern.replace("{subject}", words);
  return filled.charAt(0).toUpperCase() + filled.slice(1);
}
