// The four questions the home page shows, in their own module so the home page loads them without the
// rest of the FAQ; /faq (faq-entries.ts) lists them among the others, word for word.
export type FaqEntry = {
  id: string;
  question: string;
  answer: string;
  group: "Getting started" | "Images and models" | "Plans and limits" | "Privacy and offline";
  link?: { label: string; to: string };
};

export const TEASER_ENTRIES = {
  is_it_free: {
    id: "is-it-free",
    group: "Plans and limits",
    question: "Is PromptCanvas free?",
    answer:
      "Yes. The Free plan gives every account 5 images a day at no cost and needs no card. The count resets at midnight in your own time zone, from your first day. The Creator and Pro plans, with more images a day, are on the pricing page.",
    link: { label: "See pricing", to: "/pricing" },
  },
  which_models: {
    id: "which-models",
    group: "Images and models",
    question: "Which image models does PromptCanvas use?",
    answer:
      "Every installation includes a built-in procedural renderer. It is not an AI model: it draws scenes from a fixed vocabulary of subjects (mountains, sea, city, cat, robot, castle and more) and colour words, in the chosen style. When the operator adds a Replicate key, prompts go to FLUX Schnell (standard quality), FLUX Dev (high) or FLUX 1.1 Pro (ultra), and the Nano Banana style uses Google's nano-banana model. Runware, OpenAI-style image APIs, Black Forest Labs (FLUX), fal (FLUX Schnell) and Google Gemini can be configured too, and so can the operator's own GPU server running AUTOMATIC1111/Forge or ComfyUI. Where several are configured you choose the engine in the generator. Every image says which engine drew it, and /status shows how each has done over the last day, with its time to an image.",
  },
  commercial_use: {
    id: "commercial-use",
    group: "Images and models",
    question: "Can I use the images commercially?",
    answer:
      "Yes. You may use what you make in personal and commercial work, as long as the prompt and the image follow the content policy. Images from a third-party model are also covered by that model provider's terms.",
    link: { label: "Read the terms", to: "/terms" },
  },
  offline: {
    id: "offline",
    group: "Privacy and offline",
    question: "Does it work offline?",
    answer:
      "Partly, by design. Install it or visit once, and the app and the public pages you have opened load without a connection. Your history is kept on every device you sign in on, so you can search it offline; each device keeps every image's thumbnail, and the full images of what you saved and of your newest images up to a budget you set on the account page. Prompts you submit offline wait in a queue on your device, survive a reload, and run exactly once when you are back online; in Chromium browsers Background Sync sends them even with no page open. Saves, publishing, deletes, collections and preference changes made offline are sent in order when the connection returns. Generating itself needs the server.",
  },
} satisfies Record<string, FaqEntry>;

/** In the order the home page shows them. */
export const FAQ_TEASER: readonly FaqEntry[] = [
  TEASER_ENTRIES.is_it_free,
  TEASER_ENTRIES.which_models,
  TEASER_ENTRIES.commercial_use,
  TEASER_ENTRIES.offline,
];
