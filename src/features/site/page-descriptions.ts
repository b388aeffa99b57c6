// The site's words for search engines and link previews: its name, the link-preview image, and each
// page's description (the blog posts carry their own, in content/blog/posts.ts). src/app/route-meta.ts
// puts them together with the route table into each route's head.
import { BATCH_MAX } from "#shared/vocabulary/generation.ts";
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { TIER_DAILY_QUOTA } from "#shared/vocabulary/tiers.ts";

export const SITE_NAME = "PromptCanvas";
export const OG_IMAGE_PATH = "/og/promptcanvas.jpg";
export const OG_IMAGE_ALT = "PromptCanvas, Text to Image Generator: a ringed planet over the sea at sunset";

/** Each page's description, by path. */
export const PAGE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  "/": `Free text to image generator: turn a prompt into an image with ${STYLE_IDS.length} styles, three quality levels and square, 16:9 or 9:16 frames. Works offline.`,
  "/generate": `Write a prompt, pick a style, quality and aspect ratio, and generate an image. Negative prompts, seeds, reference images and batches of up to ${BATCH_MAX}.`,
  "/prompts":
    "Hand-picked text-to-image prompts with notes on why each works. Copy one or open it in the generator with its style and settings.",
  "/prompt-library":
    "A searchable library of tested image prompts for landscapes, characters, animals, products, cities and abstract art, each one click from the generator.",
  "/templates":
    "Fill-in-the-blank image templates for product shots, social posts, posters, avatars and more. Type your subject and open the generator ready to go.",
  "/templates-library":
    "Every PromptCanvas image template in one place, by use case, with the style, aspect ratio and negative prompt each one sets.",
  "/styles": `All ${STYLE_IDS.length} image styles of PromptCanvas with previews: photorealistic, anime, 3D render, watercolor, pixel art, cyberpunk and more. Popular and new styles marked.`,
  "/styles-library": `The styles library: each of the ${STYLE_IDS.length} styles with its look, the subjects it suits, a tip for prompting it and the prompt behind its preview.`,
  "/styles/photorealistic":
    "How to get natural-looking photographs from a prompt with the Photorealistic style: light, subject, framing, examples and ready prompts.",
  "/styles/anime":
    "Make anime-style pictures from a prompt: cel shading, big skies, characters and seasons, with examples and prompts to open in the generator.",
  "/advanced":
    "Every advanced option explained: negative prompt, seed, reference image, batch count, quality and aspect ratio, and a form that opens the generator with them set.",
  "/generate-audio":
    "Audio generation in PromptCanvas: what exists today (nothing yet) and what is planned, honestly stated.",
  "/text-effects":
    "A free text effects tool: type a word, choose outline, neon glow, gradient or 3D shadow, see it live and download a PNG.",
  "/more": "The tools around the PromptCanvas generator that work today, and the ones that are planned.",
  "/ai-image-generator": `An AI image generator in your browser: describe a picture, pick one of ${STYLE_IDS.length} styles and a frame, and keep every image in your history. Works offline, installs as an app.`,
  "/free-ai-image-generator": `Generate ${TIER_DAILY_QUOTA.free} images a day for free, no card needed. What the free plan includes, how the daily reset works and how to make every image count.`,
  "/ai-art-generator":
    "Turn text into artwork: oil painting, watercolor, impressionist, art nouveau, pop art and more. Art prompts to try and tips for composition.",
  "/pricing": `PromptCanvas plans: Free ($0, ${TIER_DAILY_QUOTA.free} images a day), Creator ($9.99/month) and Pro ($19.99/month), and how the daily limit works.`,
  "/gallery": "Browse images made with PromptCanvas and published by their creators. Search by prompt.",
  "/blog": `Guides to text-to-image generation: the complete guide, a tour of all ${STYLE_IDS.length} art styles and a prompt engineering masterclass.`,
  "/tutorials":
    "Step-by-step tutorials: your first image, batches and the queue, seeds for variations, reference images, installing the app and working offline.",
  "/faq":
    "Answers about PromptCanvas: free daily images, which models draw the pictures, image sizes, commercial use, offline use and privacy.",
  "/privacy":
    "What PromptCanvas stores about you, where, for how long and who receives it: account, images, preferences, limits, diagnostics. No third-party trackers.",
  "/terms":
    "The terms for using PromptCanvas and the images you make with it: accounts, daily limits, your rights to your images, and what we promise.",
  "/content-policy":
    "What you may and may not generate with PromptCanvas, how refused prompts are handled, and how to report an image in the gallery.",
  "/site-map":
    "Every page of PromptCanvas in one list: the generator, styles, prompts, templates, guides, plans and policies.",
  "/status":
    "How each image engine of PromptCanvas has done over the last 24 hours: calls, failures and the time to an image, measured from its own records.",
  "/domain-diagnostics":
    "Check how this copy of PromptCanvas sees its environment: host, production domain, service worker, backend reachability and storage.",
  "/payment-success": "The page a card checkout returns to: it confirms the payment and shows your new plan.",
  "/payment-canceled": "The page a cancelled card checkout returns to: nothing was charged.",
};

/** For a page without a description of its own (the 404 page, signed-in pages). */
export const FALLBACK_DESCRIPTION =
  "PromptCanvas turns a written prompt into an image, with a personal history and a daily free quota.";
