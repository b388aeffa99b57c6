// The words of the three landing pages. Each answers a different search intent: what the generator
// is and how it works (/ai-image-generator), what is free and how to make the most of it
// (/free-ai-image-generator), and making artwork in painterly and illustrated styles (/ai-art-generator).
import { PROMPT_MAX_CHARS } from "#shared/vocabulary/generation.ts";
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import type { StyleId } from "#shared/vocabulary/styles.ts";

export type LandingSection =
  | { kind: "steps"; title: string; steps: { title: string; body: string }[] }
  | { kind: "points"; title: string; intro?: string; points: { title: string; body: string }[] }
  | { kind: "styles"; title: string; intro: string; styleIds: StyleId[] }
  | { kind: "prompts"; title: string; intro: string; prompts: { prompt: string; style: StyleId }[] }
  | { kind: "table"; title: string; intro?: string; head: string[]; rows: string[][] };

export type LandingContent = {
  slug: "ai-image-generator" | "free-ai-image-generator" | "ai-art-generator";
  title: string;
  eyebrow: string;
  lead: string;
  primary: { label: string; to: string };
  secondary: { label: string; to: string };
  sections: LandingSection[];
  closing: { title: string; body: string };
};

// What draws, said in each page's lead: every installation has the built-in renderer; AI models only where
// the operator connected one (docs/decisions/143-what-the-public-pages-say.md).
const WHO_DRAWS =
  "the built-in procedural renderer, which is not an AI model, on every installation, and AI models such as FLUX where the operator of the site has connected them.";
const WHO_DRAWS_SENTENCE = `Pictures are drawn by ${WHO_DRAWS}`;

export const LANDINGS: Record<LandingContent["slug"], LandingContent> = {
  "ai-image-generator": {
    slug: "ai-image-generator",
    title: "AI Image Generator",
    eyebrow: "Text to image, in your browser",
    lead: `Write what you want to see, choose a style, a quality level and an aspect ratio, and PromptCanvas draws it: ${WHO_DRAWS} Every image is kept in your personal history, and the app keeps working when your connection does not.`,
    primary: { label: "Open the generator", to: "/generate" },
    secondary: { label: `See the ${STYLE_IDS.length} styles`, to: "/styles" },
    sections: [
      {
        kind: "steps",
        title: "How it works",
        steps: [
          {
            title: "Describe the picture",
            body: `Name a subject, a setting and the light, up to ${PROMPT_MAX_CHARS} characters. Add a negative prompt for what should stay out.`,
          },
          {
            title: "Pick the look",
            body: `Choose one of ${STYLE_IDS.length} styles, standard, high or ultra quality, and a square, 16:9 or 9:16 frame.`,
          },
          {
            title: "Generate and keep it",
            body: "The image appears in the preview and in your history. Download it, save it or publish it to the gallery.",
          },
        ],
      },
      {
        kind: "points",
        title: "What the generator gives you",
        points: [
          {
            title: "Batches and a queue",
            body: "Queue 1 to 10 variations at once; up to 4 run side by side while you keep working.",
          },
          {
            title: "Repeatable results",
            body: "Set a seed to get the same picture again, then change one word and compare.",
          },
          { title: "Image to image", body: "Add a reference picture and the renderer borrows its colours and layout." },
          {
            title: "Offline-first",
            body: "Prompts written without a connection wait on your device and run when you are back online.",
          },
          {
            title: "Private by default",
            body: "Images are stored privately under your account until you choose to publish one.",
          },
          {
            title: "Installable",
            body: "Add it to your home screen or desktop; it opens in its own window like any app.",
          },
        ],
      },
      {
        kind: "table",
        title: "Which engine draws your picture",
        intro:
          "Every installation has a built-in renderer. When the operator connects Replicate, the quality setting picks the FLUX model.",
        head: ["Quality", "Built-in engine (always)", "With a Replicate key"],
        rows: [
          ["Standard", "Procedural renderer (not an AI model)", "FLUX Schnell"],
          ["High", "The same scene with finer marks and texture", "FLUX Dev"],
          ["Ultra", "The same scene drawn at twice the size and scaled down", "FLUX 1.1 Pro"],
        ],
      },
      {
        kind: "prompts",
        title: "Prompts to start from",
        intro: "Open any of these in the generator, then make it your own.",
        prompts: [
          { prompt: "Mountain lake at sunset, mist over the water, pine forest", style: "photorealistic" },
          { prompt: "A friendly robot on a studio floor, soft shadows", style: "3d-render" },
          { prompt: "Night city in the rain, neon reflections on wet streets", style: "cyberpunk" },
        ],
      },
    ],
    closing: {
      title: "Make your first image",
      body: "Create a free account and generate five images a day, no card needed.",
    },
  },
  "free-ai-image-generator": {
    slug: "free-ai-image-generator",
    title: "Free AI Image Generator",
    eyebrow: "5 free images every day",
    lead: `PromptCanvas is free to use: every account gets five images a day with no card and no trial that runs out. The count resets at midnight where you live. ${WHO_DRAWS_SENTENCE}`,
    primary: { label: "Start for free", to: "/auth?mode=sign-up" },
    secondary: { label: "Compare plans", to: "/pricing" },
    sections: [
      {
        kind: "table",
        title: "What is free, exactly",
        head: ["", "Free plan"],
        rows: [
          ["Price", "$0, no card"],
          ["Images per day", "5, reset at your local midnight"],
          ["Aspect ratios", "1:1, 16:9 and 9:16"],
          ["History", "Every image you make, kept under your account, in collections if you like"],
          ["Public gallery", "Browse it; publish your own images if you like"],
          ["Offline queue", "Yes: prompts wait on your device until you are online"],
        ],
      },
      {
        kind: "points",
        title: "Make five images count",
        points: [
          {
            title: "Draft with the same seed",
            body: "Fix the seed while you adjust the wording, so each change shows its own effect instead of a new random picture.",
          },
          {
            title: "Say what to leave out",
            body: 'A negative prompt such as "text, watermark, blur" saves a retry more often than a longer prompt does.',
          },
          {
            title: "Start from a template",
            body: "Templates fill the generator with settings that already work for posters, product shots and avatars.",
          },
          {
            title: "Failures are free",
            body: "The limit is counted on the server, and a generation that fails is never charged against your five.",
          },
        ],
      },
      {
        kind: "points",
        title: "Honest about the limits",
        points: [
          {
            title: "Paid plans are optional",
            body: "Creator and Pro raise the daily limit and start your renders first when the built-in engine is busy; Pro adds custom styles. Everything else is the same on the free plan.",
          },
          {
            title: "Which engine you get",
            body: "The built-in procedural renderer is always there (it is not an AI model); FLUX models run when the operator has configured Replicate.",
          },
        ],
      },
    ],
    closing: {
      title: "Five free images are waiting",
      body: "Sign up with an e-mail address and a password, then start generating.",
    },
  },
  "ai-art-generator": {
    slug: "ai-art-generator",
    title: "AI Art Generator",
    eyebrow: "Paintings, illustrations and posters from a prompt",
    lead: `Turn a line of text into artwork: oil paintings with thick strokes, soft watercolours, comic panels, pop-art prints and more. Pick the medium, describe the scene, and keep every piece in your collection. ${WHO_DRAWS_SENTENCE}`,
    primary: { label: "Create artwork", to: "/generate?style=oil-painting" },
    secondary: { label: "Read the styles guide", to: "/blog/ai-art-styles-guide" },
    sections: [
      {
        kind: "styles",
        title: "Art styles to choose from",
        intro: `Eight of the ${STYLE_IDS.length} styles lean towards fine art and illustration. Each preview was drawn by the built-in renderer.`,
        styleIds: [
          "oil-painting",
          "watercolor",
          "impressionist",
          "art-nouveau",
          "baroque",
          "pop-art",
          "sketch",
          "line-art",
        ],
      },
      {
        kind: "points",
        title: "Prompting for art",
        points: [
          {
            title: "Name the medium first",
            body: 'The style sets the medium; the prompt adds the subject, the mood and the palette, such as "warm ochre and deep blue".',
          },
          {
            title: "Think in composition",
            body: 'Say where things are: "a lone boat in the foreground, mountains behind, low sun on the left".',
          },
          {
            title: "Borrow a palette",
            body: "Add a reference image and the renderer takes its colours and layout, handy for a consistent series.",
          },
          {
            title: "Series with seeds",
            body: "Keep one seed and change only the subject to make a matching set of prints.",
          },
        ],
      },
      {
        kind: "prompts",
        title: "Art prompts to try",
        intro: "Each opens in the generator with its style selected.",
        prompts: [
          { prompt: "A river through a forest between rolling hills, late afternoon light", style: "oil-painting" },
          { prompt: "Boats on a calm sea below mountains, pale morning", style: "watercolor" },
          { prompt: "Portrait of a woman with flowers in her hair, ornamental border", style: "art-nouveau" },
          { prompt: "A cat portrait repeated in loud colours", style: "pop-art" },
        ],
      },
    ],
    closing: {
      title: "Start your first piece",
      body: "Free accounts make five pieces a day. Your collection stays private until you publish.",
    },
  },
};
