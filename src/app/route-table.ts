// Every path of docs/spec.md §2, with its title, who may open it and which page module draws it. Pages
// whose content ships later say so honestly (`comingNext`); their address, title and frame are final.
// The spec withholds the third blog path; it is /blog/ai-art-styles-guide here.

export type PageKey =
  | "home"
  | "generate"
  | "gallery"
  | "dashboard"
  | "account"
  | "history"
  | "saved"
  | "billing"
  | "auth"
  | "resetPassword"
  | "siteMap"
  | "domainDiagnostics"
  | "status"
  | "paymentSuccess"
  | "paymentCanceled"
  | "pricing"
  | "faq"
  | "landing"
  | "blog"
  | "postCompleteGuide"
  | "postStylesGuide"
  | "postMasterclass"
  | "prompts"
  | "promptLibrary"
  | "templates"
  | "templatesLibrary"
  | "styles"
  | "stylesLibrary"
  | "styleDetail"
  | "advanced"
  | "tutorials"
  | "privacy"
  | "terms"
  | "contentPolicy"
  | "textEffects"
  | "audio"
  | "moreTools"
  | "comingNext"
  | "galleryImage"
  | "moderation"
  | "compare"
  | "collections"
  | "collection";

export type Section = "Create" | "Mine" | "Learn" | "Product" | "Legal" | "Account";

export type RouteEntry = {
  /** The address; `:name` stands for one segment (EXTRA_ROUTES only). */
  path: string;
  title: string;
  /**
   * `operator`: only a person whose token names the operator role sees the page; everyone else gets the
   * not-found page, titled and worded as for any unknown path (the server answers the path with 404 too).
   */
  access: "public" | "protected" | "operator";
  section: Section;
  page: PageKey;
  /** Fixed props for the page module (which landing page, which style). */
  props?: Record<string, string>;
  /**
   * False keeps a public page out of build-time prerendering (it then ships as an empty shell and is
   * drawn in the browser): for a page whose first render depends on the browser.
   */
  prerender?: false;
  comingNext?: { summary: string; links?: { label: string; to: string }[] };
};

export const ROUTES: readonly RouteEntry[] = [
  { path: "/", title: "Text to Image Generator", access: "public", section: "Create", page: "home" },
  { path: "/generate", title: "Generate", access: "public", section: "Create", page: "generate" },
  { path: "/prompts", title: "Prompts", access: "public", section: "Create", page: "prompts" },
  { path: "/prompt-library", title: "Prompt Library", access: "public", section: "Create", page: "promptLibrary" },
  { path: "/templates", title: "Templates", access: "public", section: "Create", page: "templates" },
  {
    path: "/templates-library",
    title: "Templates Library",
    access: "public",
    section: "Create",
    page: "templatesLibrary",
  },
  { path: "/styles", title: "Styles", access: "public", section: "Create", page: "styles" },
  { path: "/styles-library", title: "Styles Library", access: "public", section: "Create", page: "stylesLibrary" },
  {
    path: "/styles/photorealistic",
    title: "Photorealistic Style",
    access: "public",
    section: "Create",
    page: "styleDetail",
    props: { slug: "photorealistic" },
  },
  {
    path: "/styles/anime",
    title: "Anime Style",
    access: "public",
    section: "Create",
    page: "styleDetail",
    props: { slug: "anime" },
  },
  { path: "/advanced", title: "Advanced", access: "public", section: "Create", page: "advanced" },
  { path: "/generate-audio", title: "Audio", access: "public", section: "Create", page: "audio" },
  { path: "/text-effects", title: "Text Effects", access: "public", section: "Create", page: "textEffects" },
  { path: "/more", title: "More Tools", access: "public", section: "Create", page: "moreTools" },
  {
    path: "/ai-image-generator",
    title: "AI Image Generator",
    access: "public",
    section: "Product",
    page: "landing",
    props: { slug: "ai-image-generator" },
  },
  {
    path: "/free-ai-image-generator",
    title: "Free AI Image Generator",
    access: "public",
    section: "Product",
    page: "landing",
    props: { slug: "free-ai-image-generator" },
  },
  {
    path: "/ai-art-generator",
    title: "AI Art Generator",
    access: "public",
    section: "Product",
    page: "landing",
    props: { slug: "ai-art-generator" },
  },
  { path: "/pricing", title: "Pricing", access: "public", section: "Product", page: "pricing" },
  { path: "/status", title: "System Status", access: "public", section: "Product", page: "status" },
  { path: "/gallery", title: "Gallery", access: "public", section: "Mine", page: "gallery" },
  { path: "/dashboard", title: "Dashboard", access: "protected", section: "Account", page: "dashboard" },
  { path: "/my-generations", title: "Saved", access: "protected", section: "Mine", page: "saved" },
  { path: "/history", title: "History", access: "protected", section: "Mine", page: "history" },
  { path: "/account", title: "Account", access: "protected", section: "Account", page: "account" },
  { path: "/billing", title: "Billing", access: "protected", section: "Account", page: "billing" },
  { path: "/blog", title: "Blog", access: "public", section: "Learn", page: "blog" },
  {
    path: "/blog/complete-guide-ai-image-generation",
    title: "The Complete Guide to AI Image Generation",
    access: "public",
    section: "Learn",
    page: "postCompleteGuide",
  },
  {
    path: "/blog/ai-art-styles-guide",
    title: "A Guide to AI Art Styles",
    access: "public",
    section: "Learn",
    page: "postStylesGuide",
  },
  {
    path: "/blog/prompt-engineering-masterclass",
    title: "Prompt Engineering Masterclass",
    access: "public",
    section: "Learn",
    page: "postMasterclass",
  },
  { path: "/tutorials", title: "Tutorials", access: "public", section: "Learn", page: "tutorials" },
  { path: "/faq", title: "Frequently Asked Questions", access: "public", section: "Learn", page: "faq" },
  { path: "/privacy", title: "Privacy Policy", access: "public", section: "Legal", page: "privacy" },
  { path: "/terms", title: "Terms of Service", access: "public", section: "Legal", page: "terms" },
  { path: "/content-policy", title: "Content Policy", access: "public", section: "Legal", page: "contentPolicy" },
  { path: "/site-map", title: "Site Map", access: "public", section: "Legal", page: "siteMap" },
  {
    path: "/domain-diagnostics",
    title: "Domain Diagnostics",
    access: "public",
    section: "Legal",
    page: "domainDiagnostics",
  },
  {
    path: "/payment-success",
    title: "Confirming Your Payment",
    access: "public",
    section: "Account",
    page: "paymentSuccess",
  },
  {
    path: "/payment-canceled",
    title: "Payment Canceled",
    access: "public",
    section: "Account",
    page: "paymentCanceled",
  },
  { path: "/auth", title: "Sign In", access: "public", section: "Account", page: "auth" },
  { path: "/reset-password", title: "Reset Password", access: "public", section: "Account", page: "resetPassword" },
];

/**
 * Pages beyond docs/spec.md §2 (issue 42): the page of one published image, which anyone may open and
 * share, and the operators' moderation page. Neither is prerendered nor in the site map: the first is
 * drawn from its row (the app server writes its link-preview tags, scripts/gallery-page.mjs), the second
 * is for operators alone. Issue 46 adds /compare (decision 156), drawn in the browser from the ids in its
 * address: the build writes it a noindex shell, so its address answers 200; and a person's collections
 * (decision 157), /collections (a shell too) and /collections/<id>, signed-in pages like History.
 */
export const EXTRA_ROUTES: readonly RouteEntry[] = [
  {
    path: "/gallery/:id",
    title: "Published image",
    access: "public",
    section: "Mine",
    page: "galleryImage",
    prerender: false,
  },
  { path: "/moderation", title: "Moderation", access: "operator", section: "Account", page: "moderation" },
  { path: "/compare", title: "Compare", access: "public", section: "Mine", page: "compare", prerender: false },
  {
    path: "/collections",
    title: "Collections",
    access: "protected",
    section: "Mine",
    page: "collections",
    prerender: false,
  },
  {
    path: "/collections/:id",
    title: "Collection",
    access: "protected",
    section: "Mine",
    page: "collection",
    prerender: false,
  },
];

/** Whether `path` (no trailing slash) is an address of `entry` (a `:name` segment takes any one segment). */
export function matchesRoute(entry: RouteEntry, path: string): boolean {
  if (!entry.path.includes(":")) return entry.path === path;
  const want = entry.path.split("/");
  const have = path.split("/");
  return (
    want.length === have.length && want.every((part, i) => (part.startsWith(":") ? have[i] !== "" : part === have[i]))
  );
}

/**
 * The modules (paths under src/) each page loads: the page first, then what the router composes into
 * it (features do not import each other). The router loads pages only through this table, and the
 * prerenderer preloads these modules' chunks with each prerendered page.
 */
export const PAGE_MODULES: Readonly<Record<PageKey, readonly [string, ...string[]]>> = {
  home: ["features/marketing/home-page.tsx"],
  generate: ["features/generation/generate-page.tsx", "features/quota/components/rate-limit-alert.tsx"],
  gallery: ["features/gallery/gallery-page.tsx"],
  dashboard: ["features/dashboard/dashboard-page.tsx", "features/quota/use-quota.ts"],
  history: ["features/library/history-page.tsx"],
  saved: ["features/library/saved-page.tsx"],
  billing: ["features/billing/billing-page.tsx", "features/marketing/plans.ts"],
  account: ["features/settings/account-page.tsx"],
  auth: ["features/auth/auth-page.tsx"],
  resetPassword: ["features/auth/reset-password-page.tsx"],
  siteMap: ["features/site/site-map-page.tsx"],
  domainDiagnostics: ["features/site/domain-diagnostics-page.tsx"],
  status: ["features/site/status-page.tsx"],
  paymentSuccess: ["features/billing/payment-result-page.tsx"],
  paymentCanceled: ["features/billing/payment-result-page.tsx"],
  pricing: ["features/marketing/pricing-page.tsx"],
  faq: ["features/marketing/faq-page.tsx"],
  landing: ["features/marketing/landing-page.tsx"],
  blog: ["features/content/blog/blog-index-page.tsx"],
  postCompleteGuide: ["features/content/blog/complete-guide-post.tsx"],
  postStylesGuide: ["features/content/blog/styles-guide-post.tsx"],
  postMasterclass: ["features/content/blog/prompt-masterclass-post.tsx"],
  prompts: ["features/content/prompts/prompts-page.tsx"],
  promptLibrary: ["features/content/prompts/prompt-library-page.tsx"],
  templates: ["features/content/templates/templates-page.tsx"],
  templatesLibrary: ["features/content/templates/templates-library-page.tsx"],
  styles: ["features/content/styles/styles-page.tsx"],
  stylesLibrary: ["features/content/styles/styles-library-page.tsx"],
  styleDetail: ["features/content/styles/style-detail-page.tsx"],
  advanced: ["features/content/advanced/advanced-page.tsx"],
  tutorials: ["features/content/tutorials-page.tsx"],
  privacy: ["features/content/legal/privacy-page.tsx"],
  terms: ["features/content/legal/terms-page.tsx"],
  contentPolicy: ["features/content/legal/content-policy-page.tsx"],
  textEffects: ["features/content/tools/text-effects-page.tsx"],
  audio: ["features/content/tools/audio-page.tsx"],
  moreTools: ["features/content/tools/more-tools-page.tsx"],
  comingNext: ["ui/coming-next.tsx"],
  galleryImage: ["features/gallery/gallery-image-page.tsx"],
  moderation: ["features/moderation/moderation-page.tsx"],
  compare: ["features/compare/compare-page.tsx"],
  // A collection is drawn with the library's grid, selection bar, large view and filter fields.
  collections: ["features/collections/collections-page.tsx", "features/library/library-filters.tsx"],
  collection: [
    "features/collections/collection-page.tsx",
    "features/library/generation-grid.tsx",
    "features/library/selection-bar.tsx",
    "features/library/open-generation.tsx",
    "features/library/library-filters.tsx",
  ],
};

export const NOT_FOUND_MODULE = "features/shell/not-found-page.tsx";

export function documentTitle(title: string): string {
  return title === "Text to Image Generator" ? "PromptCanvas — Text to Image Generator" : `${title} · PromptCanvas`;
}
