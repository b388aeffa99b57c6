// JSON-LD (schema.org) for what marketing shows: the plans as offers (only the free one can be taken
// today, docs/spec.md §8) and the FAQ answers, word for word as /faq shows them (search engines require it).
import { FAQ } from "./faq-entries";
import { PLANS, type Plan } from "./plans";

export function planOffer(plan: Plan, origin: string) {
  return {
    "@type": "Offer",
    name: plan.name,
    price: plan.price === 0 ? "0" : plan.price.toFixed(2),
    priceCurrency: "USD",
    description: plan.features.join(", "),
    url: `${origin}/pricing`,
    // Paid plans cannot be bought yet (docs/spec.md §8): only the free offer is available.
    availability: plan.price === 0 ? "https://schema.org/InStock" : "https://schema.org/PreOrder",
  };
}

/** The free plan's offer: what anyone can take today. */
export function freePlanOffer(origin: string) {
  return planOffer(
    PLANS.find((p) => p.price === 0)!,
    origin,
  );
}

/** The plans as one product with an offer each; `brand` and `image` are the site's. */
export function plansProduct(origin: string, site: { brand: string; image: string }) {
  return {
    "@type": "Product",
    name: site.brand,
    description: `Text to image generator plans: ${PLANS.map((p) => p.name)
      .join(", ")
      .replace(/, ([^,]*)$/, " and $1")}.`,
    brand: { "@type": "Brand", name: site.brand },
    image: site.image,
    offers: PLANS.map((p) => planOffer(p, origin)),
  };
}

export function faqPage() {
  return {
    "@type": "FAQPage",
    mainEntity: FAQ.map((e) => ({
      "@type": "Question",
      name: e.question,
      acceptedAnswer: { "@type": "Answer", text: e.answer },
    })),
  };
}
