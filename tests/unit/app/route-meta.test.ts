import { describe, expect, it } from "vitest";
import { descriptionFor, isIndexable, routeHead } from "#src/app/route-meta.ts";
import { ROUTES } from "#src/app/route-table.ts";
import { routeFor } from "#src/app/routes.tsx";
import { FAQ } from "#src/features/marketing/faq-entries.ts";
import { renderHeadTags } from "#src/features/site/head-tags.ts";

const ORIGIN = "https://promptcanvas.app";
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON-LD is free-form JSON, read here by path
type Ld = Record<string, any>;
const ld = (path: string): Ld[] => routeHead(path, routeFor(path), ORIGIN).jsonLd as Ld[];

describe("each route's head", () => {
  it("gives every indexable page its own title and description of a useful length", () => {
    const indexable = ROUTES.filter((r) => isIndexable(r));
    expect(indexable.length).toBeGreaterThan(25);
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const r of indexable) {
      const head = routeHead(r.path, r, ORIGIN);
      expect(head.description.length, r.path).toBeGreaterThanOrEqual(40);
      expect(head.description.length, r.path).toBeLessThanOrEqual(170);
      expect(head.canonical).toBe(`${ORIGIN}${r.path}`);
      titles.add(head.title);
      descriptions.add(descriptionFor(r.path));
    }
    expect(titles.size).toBe(indexable.length);
    expect(descriptions.size).toBe(indexable.length);
  });

  it("keeps signed-in pages, the sign-in forms and payment returns out of search engines", () => {
    for (const path of [
      "/dashboard",
      "/history",
      "/my-generations",
      "/account",
      "/billing",
      "/auth",
      "/reset-password",
      "/payment-success",
    ]) {
      const head = routeHead(path, routeFor(path), ORIGIN);
      expect(head.indexable, path).toBe(false);
      expect(head.jsonLd, path).toEqual([]);
    }
  });

  it("writes escaped tags with canonical, robots and Open Graph", () => {
    const html = renderHeadTags({
      ...routeHead("/pricing", routeFor("/pricing"), ORIGIN),
      description: 'Say "hi" <now> & later',
    });
    expect(html).toContain("<title>Pricing · PromptCanvas</title>");
    expect(html).toContain('<meta name="description" content="Say &quot;hi&quot; &lt;now&gt; &amp; later" />');
    expect(html).toContain('<link rel="canonical" href="https://promptcanvas.app/pricing" />');
    expect(html).toContain('<meta name="robots" content="index, follow" />');
    expect(html).toContain('<meta property="og:image" content="https://promptcanvas.app/og/promptcanvas.jpg" />');
    expect(html).not.toMatch(/<\/script>[^\n]*<\/script>/);
  });
});

describe("structured data", () => {
  it("describes the organisation, the site and the free offer at 0 USD on the home page", () => {
    const data = ld("/");
    expect(data.map((d) => d["@type"])).toEqual(["Organization", "WebSite", "WebApplication"]);
    expect(data[2].offers).toMatchObject({ "@type": "Offer", price: "0", priceCurrency: "USD" });
  });

  it("lists the three plans on /pricing, only the free one available", () => {
    const product = ld("/pricing").find((d) => d["@type"] === "Product")!;
    expect(product.offers.map((o: Ld) => [o.name, o.price, o.priceCurrency, o.availability.split("/").pop()])).toEqual([
      ["Free", "0", "USD", "InStock"],
      ["Creator", "9.99", "USD", "PreOrder"],
      ["Pro", "19.99", "USD", "PreOrder"],
    ]);
  });

  it("repeats every visible FAQ answer word for word on /faq", () => {
    const page = ld("/faq").find((d) => d["@type"] === "FAQPage")!;
    expect(page.mainEntity).toHaveLength(FAQ.length);
    expect(page.mainEntity.map((q: Ld) => [q.name, q.acceptedAnswer.text])).toEqual(
      FAQ.map((e) => [e.question, e.answer]),
    );
  });

  it("marks each blog post as a BlogPosting with its dates", () => {
    for (const path of [
      "/blog/complete-guide-ai-image-generation",
      "/blog/ai-art-styles-guide",
      "/blog/prompt-engineering-masterclass",
    ]) {
      const post = ld(path).find((d) => d["@type"] === "BlogPosting")!;
      expect(post.headline, path).toBe(routeFor(path)!.title);
      expect(post.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(post.mainEntityOfPage).toBe(`${ORIGIN}${path}`);
    }
  });

  it("gives nested pages a breadcrumb trail through their parent pages", () => {
    const crumbs = ld("/styles/anime").find((d) => d["@type"] === "BreadcrumbList")!;
    expect(crumbs.itemListElement.map((i: Ld) => [i.position, i.name, i.item])).toEqual([
      [1, "Home", `${ORIGIN}/`],
      [2, "Styles", `${ORIGIN}/styles`],
      [3, "Anime Style", `${ORIGIN}/styles/anime`],
    ]);
  });
});
