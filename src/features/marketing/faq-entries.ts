// The questions /faq answers, the home page's teaser picks from and the FAQPage structured data
// repeats word for word (search engines require the marked-up answers to be the visible ones).
import { REPORTS_TO_HOLD } from "#shared/vocabulary/moderation.ts";
import { STYLES } from "#shared/vocabulary/styles.ts";
import { TEASER_ENTRIES, type FaqEntry } from "./faq-teaser";

// "Photorealistic, Anime, … and Nano Banana (the newest)": every style's name, in the product's order.
const STYLE_NAMES = STYLES.map((s) => (s.isNew ? `${s.label} (the newest)` : s.label));
const STYLE_LIST = `${STYLE_NAMES.slice(0, -1).join(", ")} and ${STYLE_NAMES[STYLE_NAMES.length - 1]}`;

export const FAQ: readonly FaqEntry[] = [
  {
    id: "what-is-it",
    group: "Getting started",
    question: "What is PromptCanvas?",
    answer: `PromptCanvas turns a written prompt into an image. You pick one of ${STYLES.length} styles, a quality level and an aspect ratio (square, 16:9 or 9:16), and the image lands in your personal history. It installs as an app, queues prompts while you are offline and runs them when the connection returns.`,
    link: { label: "Open the generator", to: "/generate" },
  },
  TEASER_ENTRIES.is_it_free,
  TEASER_ENTRIES.which_models,
  {
    id: "how-many-styles",
    group: "Images and models",
    question: "How many styles are there?",
    answer: `${STYLES.length}: ${STYLE_LIST}.`,
    link: { label: "Browse the styles", to: "/styles" },
  },
  {
    id: "sizes",
    group: "Images and models",
    question: "What sizes are the images?",
    answer:
      "Square images are 1024×1024 pixels, 16:9 images are 1536×1024 and 9:16 images are 1024×1536. The stored width and height are always the real pixels of the image as it was made. From an image's large view you can also upscale it 2× or 4× with an AI model (ESRGAN) that runs on your own device, offline once it has been used, and download the result or keep it in your library beside the original, where your other devices get it too: up to 6144×4096 pixels from a 16:9 image. Without a graphics card it takes longer: on a quiet two-core computer with no graphics card, a 1024×1024 image took 37 seconds at 2× and 43 seconds at 4× in our measurements, and a busy computer can take a few minutes.",
  },
  TEASER_ENTRIES.commercial_use,
  {
    id: "negative-prompt-seed",
    group: "Getting started",
    question: "What are the negative prompt and the seed for?",
    answer:
      'The negative prompt lists what you do not want in the picture (for example "text, people, blur"). The seed fixes the random choices: the same prompt, style, size and seed give the same picture again, which lets you change one word and compare. Leave the seed empty for a new picture every time.',
    link: { label: "Advanced options explained", to: "/advanced" },
  },
  {
    id: "daily-limit",
    group: "Plans and limits",
    question: "What happens when I reach my daily limit?",
    answer:
      "The generator shows a warning when 2 or fewer images remain and a countdown to your reset. At zero it says so and offers the pricing page. Generate is then refused with the reset time, and you may choose Hold it until the reset: that request waits in the queue and runs after the reset unless you remove it. Nothing waits unless you choose so: a queued task that meets the limit fails, stays in the queue with Retry, and costs nothing. The limit is enforced on the server, and a failed or refused generation never counts against it.",
  },
  {
    id: "buy-plan",
    group: "Plans and limits",
    question: "Can I buy the Creator or Pro plan?",
    answer:
      "Yes: a plan's button on the pricing page opens Stripe's checkout, and the new daily limit applies on every device you are signed in on as soon as the payment is confirmed. Your billing page shows your plan, when it renews and your invoices; Manage billing there changes your card, switches or cancels the plan (it stays until the end of the month paid for). Where the operator has not connected card payments, the button says so instead and nothing is charged: Connect Supabase + Stripe to enable subscriptions.",
    link: { label: "See pricing", to: "/pricing" },
  },
  {
    id: "refused-prompt",
    group: "Images and models",
    question: "Why was my prompt refused?",
    answer:
      "Before anything is drawn, the server checks the prompt (not the negative prompt) against a kept list of English sexual and abusive words, which also catches them spelt with numbers, look-alike letters, spaces or repeated letters, and against terms the operators of the site add. A match shows Content Policy Violation: nothing is drawn or stored and your daily limit is not charged. The check is automatic and can be wrong; rephrase and try again. Publishing checks the prompt again and the image too.",
    link: { label: "Read the content policy", to: "/content-policy" },
  },
  {
    id: "share-image",
    group: "Images and models",
    question: "Can I share a link to one image?",
    answer:
      "Yes, once it is published. Every published image has its own page at /gallery/ followed by its id, which anyone can open, signed in or not, with its prompt, style and settings and Make one like this. Copy link is on that page, in the gallery's large view and in each tile's menu, and Share (where the browser has a share sheet) beside it. When the image is unpublished, deleted or removed by an operator, the link finds nothing.",
    link: { label: "Browse the gallery", to: "/gallery" },
  },
  {
    id: "collections",
    group: "Images and models",
    question: "Can I sort my images into collections?",
    answer:
      "Yes, once signed in. A collection holds the images you add to it, from an image's large view or a selection in History or Saved, and an image can be in several. A smart collection is a saved filter instead (style, quality, aspect ratio, engine, dates, saved, published or words of the prompt) and always shows every image that matches. Both are made, renamed and filled offline too, reach every device you sign in on, download as one zip, and let you compare 2 to 4 of their images.",
    link: { label: "Open your collections", to: "/collections" },
  },
  {
    id: "report-image",
    group: "Images and models",
    question: "How do I report an image in the gallery?",
    answer: `Sign in, open the image in the gallery or on its own page, and press Report. Choose one of the content policy's reasons and, if you like, add a note. The image disappears for you at once; each person can report an image once, and when ${REPORTS_TO_HOLD} different people have, it leaves the gallery for everyone until an operator of the site has reviewed it. Operators can restore it, remove it with a reason its owner sees, or also suspend the account from publishing.`,
    link: { label: "How reports are handled", to: "/content-policy#reporting" },
  },
  TEASER_ENTRIES.offline,
  {
    id: "batches",
    group: "Getting started",
    question: "Can I queue several images at once?",
    answer:
      "Yes. Turn on batch mode to queue 1 to 10 tasks from one prompt; the queue runs 1 to 4 at a time (2 by default, set beside the batch count) and shows what is queued, running, done or failed. Each task is sent once, even if you reload or go offline in the middle, and a failed one can be retried.",
    link: { label: "Open the generator", to: "/generate" },
  },
  {
    id: "install",
    group: "Privacy and offline",
    question: "How do I install PromptCanvas as an app?",
    answer:
      "In Chrome, Edge and other Chromium browsers, press the Install app button in the top bar (or use the browser menu). On iPhone and iPad, open the Share menu in Safari and choose Add to Home Screen. The installed app opens in its own window with shortcuts to Generate and History.",
  },
  {
    id: "where-stored",
    group: "Privacy and offline",
    question: "Where are my images and prompts stored?",
    answer:
      "Your generated images are kept in private storage under your account, and only you can open them unless you publish one to the public gallery. Your prompt history stays on the device where you typed it, under your account. Each device you sign in on keeps every image's thumbnail, the full images you saved and your newest full images up to a budget you set on the account page, for offline use, until you sign out or clear it there; Sign out everywhere on the account page signs out every device within seconds. No advertising or third-party tracking scripts are used.",
    link: { label: "Privacy policy", to: "/privacy" },
  },
];
