// Every path of spec §2, with its title, who may open it and which page module draws it. Pages
// whose content ships later say so honestly (`comingNext`); their address, title and frame are final.
// The spec withholds the third blog path; it is /blog/ai-art-styles-guide here.

export type PageKey =
  | "home"
  | "gallery"
  | "dashboard"
  | "account"
  | "auth"
  | "resetPassword"
  | "siteMap"
  | "domainDiagnostics"
  | "paymentSuccess"
  | "paymentCanceled"
  | "comingNext";

export type Section = "Create" | "Mine" | "Learn" | "Product" | "Legal" | "Account";

export type RouteEntry = {
  path: string;
  title: string;
  access: "public" | "protected";
  section: Section;
  page: PageKey;
  comingNext?: { summary: string; links?: { label: string; to: string }[] };
};

const GENERATE_LINK = { label: "Generate", to: "/generate" };
const GALLERY_LINK = { label: "Gallery", to: "/gallery" };

function later(
  path: string,
  title: string,
  section: Section,
  summary: string,
  links: { label: string; to: string }[] = [],
  access: RouteEntry["access"] = "public",
): RouteEntry {
  return { path, title, access, section, page: "comingNext", comingNext: { summary, links } };
}

export const ROUTES: readonly RouteEntry[] = [
  { path: "/", title: "AI Text to Image Generator", access: "public", section: "Create", page: "home" },
  later("/generate", "Generate", "Create", "Write a prompt, pick a style, quality and aspect ratio, and get an image — queued offline when you have no connection.", [GALLERY_LINK]),
  later("/prompts", "Prompts", "Create", "Ready-made prompts you can open in the generator with one click.", [GENERATE_LINK]),
  later("/prompt-library", "Prompt Library", "Create", "A searchable library of prompts, grouped by subject and style.", [GENERATE_LINK]),
  later("/templates", "Templates", "Create", "Starting points for common jobs: product shots, posters, avatars and social images.", [GENERATE_LINK]),
  later("/templates-library", "Templates Library", "Create", "Every template in one place, with previews.", [GENERATE_LINK]),
  later("/styles", "Styles", "Create", "The 27 styles the generator offers, from photorealistic to pixel art, with previews.", [GENERATE_LINK]),
  later("/styles-library", "Styles Library", "Create", "Every style with sample images and tips for getting the look.", [GENERATE_LINK]),
  later("/styles/photorealistic", "Photorealistic Style", "Create", "How to get true-to-life photographs from a prompt, with examples.", [{ label: "All styles", to: "/styles" }, GENERATE_LINK]),
  later("/styles/anime", "Anime Style", "Create", "Cel-shaded characters and scenes in the anime style, with examples.", [{ label: "All styles", to: "/styles" }, GENERATE_LINK]),
  later("/advanced", "Advanced", "Create", "Negative prompts, seeds, reference images and batch runs in one place.", [GENERATE_LINK]),
  later("/generate-audio", "Audio", "Create", "Turning a prompt into sound is planned; images come first.", [GENERATE_LINK]),
  later("/text-effects", "Text Effects", "Create", "Stylised lettering for titles and logos, made from a prompt.", [GENERATE_LINK]),
  later("/more", "More Tools", "Create", "Smaller tools around the generator: upscaling, variations and more.", [GENERATE_LINK]),
  later("/ai-image-generator", "AI Image Generator", "Product", "What the generator does, how it works, and how to get good results.", [GENERATE_LINK]),
  later("/free-ai-image-generator", "Free AI Image Generator", "Product", "Five free images every day, no card needed.", [GENERATE_LINK, { label: "Pricing", to: "/pricing" }]),
  later("/ai-art-generator", "AI Art Generator", "Product", "Make artwork in painterly, illustrated and abstract styles from a prompt.", [GENERATE_LINK]),
  later("/pricing", "Pricing", "Product", "Free, Creator and Pro plans compared, and how the daily quota works.", [GENERATE_LINK]),
  { path: "/gallery", title: "Gallery", access: "public", section: "Mine", page: "gallery" },
  { path: "/dashboard", title: "Dashboard", access: "protected", section: "Account", page: "dashboard" },
  { path: "/my-generations", title: "Saved", access: "protected", section: "Mine", page: "comingNext", comingNext: { summary: "The images you saved, kept on this device for offline viewing.", links: [{ label: "History", to: "/history" }, GENERATE_LINK] } },
  { path: "/history", title: "History", access: "protected", section: "Mine", page: "comingNext", comingNext: { summary: "Everything you generated, newest first, available offline once loaded.", links: [GENERATE_LINK] } },
  { path: "/account", title: "Account", access: "protected", section: "Account", page: "account" },
  { path: "/billing", title: "Billing", access: "protected", section: "Account", page: "comingNext", comingNext: { summary: "Your plan, usage and invoices. Paid subscriptions are not available yet.", links: [{ label: "Pricing", to: "/pricing" }] } },
  later("/blog", "Blog", "Learn", "Guides and stories about making images from text.", [
    { label: "Complete guide", to: "/blog/complete-guide-ai-image-generation" },
    { label: "Styles guide", to: "/blog/ai-art-styles-guide" },
    { label: "Prompt masterclass", to: "/blog/prompt-engineering-masterclass" },
  ]),
  later("/blog/complete-guide-ai-image-generation", "The Complete Guide to AI Image Generation", "Learn", "From your first prompt to a finished image: styles, quality, aspect ratios and seeds explained.", [{ label: "Blog", to: "/blog" }]),
  later("/blog/ai-art-styles-guide", "A Guide to AI Art Styles", "Learn", "What each style does to a prompt, with side-by-side examples.", [{ label: "Blog", to: "/blog" }]),
  later("/blog/prompt-engineering-masterclass", "Prompt Engineering Masterclass", "Learn", "How to write prompts that get what you mean: subject, medium, light, composition and negatives.", [{ label: "Blog", to: "/blog" }]),
  later("/tutorials", "Tutorials", "Learn", "Step-by-step walkthroughs of the generator, queue and history.", [GENERATE_LINK]),
  later("/faq", "Frequently Asked Questions", "Learn", "Answers about quotas, image rights, offline use and accounts.", [{ label: "Pricing", to: "/pricing" }]),
  later("/privacy", "Privacy Policy", "Legal", "What we store, where, and for how long, and how to delete it.", []),
  later("/terms", "Terms of Service", "Legal", "The rules for using PromptCanvas and the images you make with it.", []),
  later("/content-policy", "Content Policy", "Legal", "What you may and may not generate, and what happens when a prompt is refused.", []),
  { path: "/site-map", title: "Site Map", access: "public", section: "Legal", page: "siteMap" },
  { path: "/domain-diagnostics", title: "Domain Diagnostics", access: "public", section: "Legal", page: "domainDiagnostics" },
  { path: "/payment-success", title: "Payment Successful", access: "public", section: "Account", page: "paymentSuccess" },
  { path: "/payment-canceled", title: "Payment Canceled", access: "public", section: "Account", page: "paymentCanceled" },
  { path: "/auth", title: "Sign In", access: "public", section: "Account", page: "auth" },
  { path: "/reset-password", title: "Reset Password", access: "public", section: "Account", page: "resetPassword" },
];

export const PROTECTED_PATHS = ROUTES.filter((r) => r.access === "protected").map((r) => r.path);

export function documentTitle(title: string): string {
  return title === "AI Text to Image Generator" ? "PromptCanvas — AI Text to Image Generator" : `${title} · PromptCanvas`;
}
