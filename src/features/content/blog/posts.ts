// The blog's posts: what the index lists and what the BlogPosting structured data says about each.
// The bodies live in one module per post, so each post's words load only on its own page.
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";

export type PostMeta = {
  path: string;
  title: string;
  description: string;
  /** ISO dates. */
  published: string;
  updated: string;
  readingMinutes: number;
  tags: string[];
};

export const POSTS: readonly PostMeta[] = [
  {
    path: "/blog/complete-guide-ai-image-generation",
    title: "The Complete Guide to AI Image Generation",
    description:
      "From your first prompt to a finished image: how text-to-image works, and what style, quality, aspect ratio, negative prompt, seed, reference image and batch mode each do.",
    published: "2026-11-21",
    updated: "2026-11-26",
    readingMinutes: 10,
    tags: ["Guide", "Basics"],
  },
  {
    path: "/blog/ai-art-styles-guide",
    title: "A Guide to AI Art Styles",
    description: `All ${STYLE_IDS.length} PromptCanvas styles in four families, what each does to a picture, which subjects suit it, and how to choose when two styles seem close.`,
    published: "2026-11-21",
    updated: "2026-11-21",
    readingMinutes: 8,
    tags: ["Styles"],
  },
  {
    path: "/blog/prompt-engineering-masterclass",
    title: "Prompt Engineering Masterclass",
    description:
      "Write prompts that get what you mean: a five-part structure, word order, light and colour, negative prompts, seeds for controlled experiments, and fixes for failures.",
    published: "2026-11-21",
    updated: "2026-11-26",
    readingMinutes: 11,
    tags: ["Prompts", "Advanced"],
  },
];

export function postByPath(path: string): PostMeta | undefined {
  return POSTS.find((p) => p.path === path);
}
