// The site-wide JSON-LD (schema.org) pieces: the organization behind the site, the website with its
// gallery search, the web application, and the breadcrumb trail. Page-specific pieces (plans, FAQ,
// blog posts) come from their features; src/app/structured-data.ts decides which page gets which.
import { SITE_NAME } from "./page-descriptions";

export const SCHEMA_CONTEXT = "https://schema.org";

/** What other pieces say about the publisher: its node id, name, home page and logo. */
export type Organization = { id: string; name: string; url: string; logo: string };

export function organizationFacts(origin: string): Organization {
  return { id: `${origin}/#organization`, name: SITE_NAME, url: `${origin}/`, logo: `${origin}/icons/icon-512.png` };
}

/** A piece as a top-level JSON-LD document (the context first, as search engines read it). */
export function asDocument<T extends object>(piece: T): { "@context": string } & T {
  return { "@context": SCHEMA_CONTEXT, ...piece };
}

export function organization(origin: string) {
  const org = organizationFacts(origin);
  return asDocument({ "@type": "Organization", "@id": org.id, name: org.name, url: org.url, logo: org.logo });
}

export function website(origin: string) {
  return asDocument({
    "@type": "WebSite",
    "@id": `${origin}/#website`,
    name: SITE_NAME,
    url: `${origin}/`,
    publisher: { "@id": organizationFacts(origin).id },
    potentialAction: {
      "@type": "SearchAction",
      target: { "@type": "EntryPoint", urlTemplate: `${origin}/gallery?q={search_term_string}` },
      "query-input": "required name=search_term_string",
    },
  });
}

/** The web application, with the offer a visitor can take today and its one-line description. */
export function webApplication(origin: string, description: string, offers: object) {
  return asDocument({
    "@type": "WebApplication",
    "@id": `${origin}/#app`,
    name: `${SITE_NAME} — Text to Image Generator`,
    url: `${origin}/`,
    applicationCategory: "DesignApplication",
    operatingSystem: "Any (web browser)",
    description,
    publisher: { "@id": organizationFacts(origin).id },
    offers,
  });
}

/** Home > each ancestor that is itself a page > this page. */
export function breadcrumbList(trail: readonly { name: string; path: string }[], origin: string) {
  return asDocument({
    "@type": "BreadcrumbList",
    itemListElement: trail.map((t, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: t.name,
      item: `${origin}${t.path}`,
    })),
  });
}
