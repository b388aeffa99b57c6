// JSON-LD for search engines, built from the same data the pages show: Organization and WebSite on
// the home page, the web application with its free offer at 0 USD, the three plans on /pricing,
// FAQPage on /faq (the visible answers, word for word), BlogPosting on posts, and a BreadcrumbList
// on every page below the home page.
import { FAQ } from "../features/marketing/faq-entries";
import { PLANS } from "../features/marketing/plans";
import { postByPath } from "../features/content/blog/posts";
import { ROUTES, type RouteEntry } from "./route-table";

const CONTEXT = "https://schema.org";
const ORG_NAME = "PromptCanvas";

function organization(origin: string) {
  return {
    "@context": CONTEXT,
    "@type": "Organization",
    "@id": `${origin}/#organization`,
    name: ORG_NAME,
    url: `${origin}/`,
    logo: `${origin}/icons/icon-512.png`,
  };
}

function website(origin: string) {
  return {
    "@context": CONTEXT,
    "@type": "WebSite",
    "@id": `${origin}/#website`,
    name: ORG_NAME,
    url: `${origin}/`,
    publisher: { "@id": `${origin}/#organization` },
    potentialAction: {
      "@type": "SearchAction",
      target: { "@type": "EntryPoint", urlTemplate: `${origin}/gallery?q={search_term_string}` },
      "query-input": "required name=search_term_string",
    },
  };
}

function offer(plan: (typeof PLANS)[number], origin: string) {
  return {
    "@type": "Offer",
    name: plan.name,
    price: plan.price === 0 ? "0" : plan.price.toFixed(2),
    priceCurrency: "USD",
    description: plan.features.join(", "),
    url: `${origin}/pricing`,
    // Paid plans cannot be bought yet (spec §8): only the free offer is available.
    availability: plan.price === 0 ? "https://schema.org/InStock" : "https://schema.org/PreOrder",
  };
}

function webApplication(origin: string) {
  const free = PLANS.find((p) => p.price === 0)!;
  return {
    "@context": CONTEXT,
    "@type": "WebApplication",
    "@id": `${origin}/#app`,
    name: "PromptCanvas — AI Text to Image Generator",
    url: `${origin}/`,
    applicationCategory: "DesignApplication",
    operatingSystem: "Any (web browser)",
    description: "Turn a written prompt into an image with 27 styles, three quality levels and three aspect ratios.",
    publisher: { "@id": `${origin}/#organization` },
    offers: offer(free, origin),
  };
}

function product(origin: string) {
  return {
    "@context": CONTEXT,
    "@type": "Product",
    name: "PromptCanvas",
    description: "AI text to image generator plans: Free, Creator and Pro.",
    brand: { "@type": "Brand", name: ORG_NAME },
    image: `${origin}/og/promptcanvas.jpg`,
    offers: PLANS.map((p) => offer(p, origin)),
  };
}

function faqPage() {
  return {
    "@context": CONTEXT,
    "@type": "FAQPage",
    mainEntity: FAQ.map((e) => ({
      "@type": "Question",
      name: e.question,
      acceptedAnswer: { "@type": "Answer", text: e.answer },
    })),
  };
}

function blogPosting(path: string, origin: string) {
  const post = postByPath(path);
  if (!post) return null;
  return {
    "@context": CONTEXT,
    "@type": "BlogPosting",
    headline: post.title,
    description: post.description,
    datePublished: post.published,
    dateModified: post.updated,
    mainEntityOfPage: `${origin}${post.path}`,
    image: `${origin}/og/promptcanvas.jpg`,
    author: { "@type": "Organization", name: ORG_NAME, url: `${origin}/` },
    publisher: {
      "@id": `${origin}/#organization`,
      "@type": "Organization",
      name: ORG_NAME,
      logo: { "@type": "ImageObject", url: `${origin}/icons/icon-512.png` },
    },
    keywords: post.tags.join(", "),
  };
}

/** Home > each ancestor that is itself a page > this page. */
function breadcrumbs(path: string, entry: RouteEntry, origin: string) {
  const trail: { name: string; path: string }[] = [{ name: "Home", path: "/" }];
  const parts = path.split("/").filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    const ancestor = `/${parts.slice(0, i).join("/")}`;
    const page = ROUTES.find((r) => r.path === ancestor);
    if (page) trail.push({ name: page.title, path: page.path });
  }
  trail.push({ name: entry.title, path });
  return {
    "@context": CONTEXT,
    "@type": "BreadcrumbList",
    itemListElement: trail.map((t, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: t.name,
      item: `${origin}${t.path}`,
    })),
  };
}

export function structuredDataFor(path: string, entry: RouteEntry, origin: string): object[] {
  if (path === "/") return [organization(origin), website(origin), webApplication(origin)];
  const data: object[] = [];
  if (path === "/pricing" || path === "/free-ai-image-generator") data.push(product(origin));
  if (path === "/faq") data.push(faqPage());
  const post = blogPosting(path, origin);
  if (post) data.push(post);
  data.push(breadcrumbs(path, entry, origin));
  return data;
}
