// Which JSON-LD each page carries: Organization, WebSite and the web application with its free offer
// on the home page, the plans on /pricing and the free plan's landing page, FAQPage on /faq,
// BlogPosting on posts, and a BreadcrumbList on every page below the home page. The pieces come from
// their features; this module only composes them with the route table.
import { QUALITIES, ASPECT_RATIOS } from "#shared/vocabulary/generation.ts";
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { blogPosting } from "../features/content/blog/structured-data";
import { faqPage, freePlanOffer, plansProduct } from "../features/marketing/structured-data";
import { OG_IMAGE_PATH, SITE_NAME } from "../features/site/page-descriptions";
import {
  breadcrumbList,
  asDocument,
  organization,
  organizationFacts,
  webApplication,
  website,
} from "../features/site/structured-data";
import { ROUTES, type RouteEntry } from "./route-table";

const COUNT_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const inWords = (n: number) => COUNT_WORDS[n] ?? String(n);

const APP_DESCRIPTION = `Turn a written prompt into an image with ${STYLE_IDS.length} styles, ${inWords(QUALITIES.length)} quality levels and ${inWords(ASPECT_RATIOS.length)} aspect ratios.`;

/** Home, then each ancestor path that is itself a page, then this page. */
function trail(path: string, entry: RouteEntry): { name: string; path: string }[] {
  const crumbs = [{ name: "Home", path: "/" }];
  const parts = path.split("/").filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    const ancestor = ROUTES.find((r) => r.path === `/${parts.slice(0, i).join("/")}`);
    if (ancestor) crumbs.push({ name: ancestor.title, path: ancestor.path });
  }
  crumbs.push({ name: entry.title, path });
  return crumbs;
}

export function structuredDataFor(path: string, entry: RouteEntry, origin: string): object[] {
  if (path === "/")
    return [organization(origin), website(origin), webApplication(origin, APP_DESCRIPTION, freePlanOffer(origin))];
  const image = `${origin}${OG_IMAGE_PATH}`;
  const data: object[] = [];
  if (path === "/pricing" || path === "/free-ai-image-generator")
    data.push(asDocument(plansProduct(origin, { brand: SITE_NAME, image })));
  if (path === "/faq") data.push(asDocument(faqPage()));
  const post = blogPosting(path, origin, organizationFacts(origin), image);
  if (post) data.push(asDocument(post));
  data.push(breadcrumbList(trail(path, entry), origin));
  return data;
}
