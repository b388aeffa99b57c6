// The home page (docs/spec.md §1): hero with the calls to action that scroll to #generator and #pricing,
// stats, the six feature claims, the trusted-by strip, the styles carousel, testimonials, the
// generator section, pricing, the FAQ teaser and a closing call to action. Static and light: the
// generator's code loads only when its section nears the viewport, and only for a signed-in person.
import { Suspense, lazy, type ComponentType } from "react";
import { Link } from "wouter";
import { useHydrated } from "../../lib/use-hydrated";
import { useSession } from "../../state/session-store";
import { Icon, type IconName } from "../../ui/icons";
import { STYLE_IDS } from "#shared/vocabulary/style-ids.ts";
import { TIER_DAILY_QUOTA } from "#shared/vocabulary/tiers.ts";
import { QUALITIES } from "#shared/vocabulary/generation.ts";
import { GeneratorInvitation, type GeneratorLoader } from "./generator-invitation";

// Figures that are the product's own, not the spec's marketing ones (it claims 10M+ images and 99.9%
// uptime, which nothing here measures): all three come from the vocabulary. A render time is not shown:
// it depends on the engine and the server, and /status measures it from the site's own records
// (docs/decisions/143-what-the-public-pages-say.md).
const STATS = [
  { value: String(STYLE_IDS.length), label: "style options" },
  { value: String(TIER_DAILY_QUOTA.free), label: "free images every day" },
  { value: String(QUALITIES.length), label: "quality levels" },
];

const FEATURES: { icon: IconName; title: string; body: string }[] = [
  {
    icon: "clock",
    title: "Quick results",
    body: "The image appears in the preview as soon as it is drawn. The status page shows how long each engine of this site has taken over the last day.",
  },
  {
    icon: "palette",
    title: `${STYLE_IDS.length} styles`,
    body: "Photorealistic, artistic, cartoon, abstract and more, each with a preview.",
  },
  {
    icon: "image",
    title: "Up to 1536 pixels",
    body: "Square images are 1024×1024; 16:9 is 1536×1024 and 9:16 is 1024×1536.",
  },
  { icon: "download", title: "Instant downloads", body: "Save what you make as PNG, JPG or WebP." },
  { icon: "shield", title: "Commercial use", body: "Use your images in paid work too, within the content policy." },
  {
    icon: "globe",
    title: "Works offline",
    body: "Queue prompts with no connection: they run once when it returns, and your history stays searchable on this device.",
  },
];

// What draws, said where the headline is: an installation has the built-in renderer and only the AI models
// its operator connects (supabase/functions/_shared/providers/configured.ts).
const WHAT_DRAWS =
  "Pictures are drawn by the built-in procedural renderer, which is not an AI model, unless the operator of this site has connected an AI model such as FLUX; every image says which engine drew it.";

// The technology the product runs on in every installation. An image provider is not listed: none
// is connected unless the operator configures one, and the built-in renderer needs none.
const TRUSTED = ["Supabase", "PostgreSQL", "React", "IndexedDB", "Workbox"];

const GeneratorSection = lazy(() => import("./generator-section"));

/**
 * A section below the first screen whose code loads as it nears the viewport (the first load stays
 * within its 100 KB gzip budget): over prerendered markup React keeps the server's HTML for a boundary
 * that suspends while hydrating; drawn afresh (a client-side visit) or prerendered, it loads at once.
 */
function deferred(id: string, load: () => Promise<ComponentType>): ComponentType {
  const Content = lazy(async () => {
    const section = typeof document === "undefined" ? null : document.getElementById(id);
    if (section && typeof IntersectionObserver === "function") {
      await new Promise<void>((near) => {
        const watch = new IntersectionObserver(
          (seen) => seen.some((e) => e.isIntersecting) && near(watch.disconnect()),
          { rootMargin: "50% 0px" },
        );
        watch.observe(section);
      });
    }
    return { default: await load() };
  });
  return () => (
    <Suspense fallback={null}>
      <Content />
    </Suspense>
  );
}

const StylesCarousel = deferred("styles", () => import("./styles-carousel").then((m) => m.StylesCarousel));
const Testimonials = deferred("testimonials", () => import("./testimonials").then((m) => m.Testimonials));
const PlanCards = deferred("pricing", () => import("./plan-cards").then((m) => () => <m.PlanCards />));
const FaqTeaser = deferred("faq", () =>
  Promise.all([import("./faq-teaser"), import("./faq-item")]).then(([{ FAQ_TEASER }, { FaqItem }]) => () => (
    <>
      {FAQ_TEASER.map((entry) => (
        <FaqItem key={entry.id} entry={entry} />
      ))}
    </>
  )),
);

/** Visitors get the invitation; a signed-in person gets the generator (see generator-section). */
function GeneratorSlot({ load }: { load?: GeneratorLoader }) {
  const hydrated = useHydrated();
  const signedIn = useSession().status === "signed-in";
  if (!hydrated || !signedIn || !load) return <GeneratorInvitation signedIn={false} />;
  return (
    <Suspense fallback={<GeneratorInvitation signedIn />}>
      <GeneratorSection load={load} />
    </Suspense>
  );
}

export default function HomePage({ loadGenerator }: { loadGenerator?: GeneratorLoader }) {
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-20 pb-10">
      <section aria-labelledby="hero-title" className="pt-4 text-center sm:pt-10">
        <span className="badge badge-soft badge-primary mb-5">Works offline · Installable</span>
        <h1 id="hero-title" className="text-4xl font-extrabold tracking-tight text-balance sm:text-6xl">
          Text to Image Generator
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-base-content/80 text-pretty">
          Turn ideas into visuals. Choose from {STYLE_IDS.length} styles and three aspect ratios, then download as PNG,
          JPG or WebP, or upscale 4× on your device for an ultra-high-resolution download up to 6144 pixels wide, kept
          in your library if you like.
        </p>
        <p className="mx-auto mt-3 max-w-2xl text-sm text-base-content/80 text-pretty">
          {WHAT_DRAWS}{" "}
          <Link to="/faq#which-models" className="link">
            Which engines can draw
          </Link>
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <a href="#generator" className="btn btn-primary btn-lg">
            <Icon name="sparkles" />
            Start creating
          </a>
          <a href="#pricing" className="btn btn-outline btn-lg">
            See pricing
          </a>
        </div>
        <dl className="mx-auto mt-12 grid max-w-2xl grid-cols-3 gap-4">
          {STATS.map((s) => (
            <div key={s.label} className="flex flex-col rounded-box bg-base-200 px-2 py-4">
              <dt className="text-xs text-base-content/80 sm:text-sm">{s.label}</dt>
              <dd className="order-first text-2xl font-bold sm:text-3xl">{s.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="features-title">
        <h2 id="features-title" className="text-center text-2xl font-bold sm:text-3xl">
          Everything you need to create
        </h2>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((f) => (
            <li key={f.title} className="card border border-base-300 bg-base-100">
              <div className="card-body">
                <span className="grid size-10 place-items-center rounded-field bg-primary/10 text-primary">
                  <Icon name={f.icon} />
                </span>
                <h3 className="card-title text-base">{f.title}</h3>
                <p className="text-sm text-base-content/80">{f.body}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="trusted-title" className="rounded-box border border-base-300 px-4 py-6 text-center">
        <h2 id="trusted-title" className="text-sm font-semibold tracking-wider text-base-content/80 uppercase">
          Built on technology trusted worldwide
        </h2>
        <ul className="mt-4 flex flex-wrap justify-center gap-x-8 gap-y-3 text-lg font-semibold text-base-content/80">
          {TRUSTED.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      </section>

      <section id="styles" aria-labelledby="styles-title">
        <StylesCarousel />
      </section>

      <section id="generator" aria-labelledby="generator-title" className="scroll-mt-24">
        <GeneratorSlot load={loadGenerator} />
      </section>

      <section id="testimonials" aria-labelledby="testimonials-title">
        <Testimonials />
      </section>

      <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-24">
        <h2 id="pricing-title" className="text-center text-2xl font-bold sm:text-3xl">
          Simple pricing
        </h2>
        <p className="mt-2 text-center text-base-content/80">Start free with 5 images a day. No card needed.</p>
        <div className="mt-8">
          <PlanCards />
        </div>
        <p className="mt-6 text-center">
          <Link to="/pricing" className="link link-primary">
            Compare plans in detail
          </Link>
        </p>
      </section>

      <section id="faq" aria-labelledby="faq-title">
        <h2 id="faq-title" className="text-center text-2xl font-bold sm:text-3xl">
          Questions, answered
        </h2>
        <div className="mx-auto mt-8 flex max-w-3xl flex-col gap-2">
          <FaqTeaser />
        </div>
        <p className="mt-6 text-center">
          <Link to="/faq" className="link link-primary">
            Read all frequently asked questions
          </Link>
        </p>
      </section>

      <section
        aria-labelledby="cta-title"
        className="rounded-box bg-primary px-6 py-12 text-center text-primary-content"
      >
        <h2 id="cta-title" className="text-2xl font-bold sm:text-3xl">
          Start creating today
        </h2>
        <p className="mx-auto mt-3 max-w-xl opacity-90">
          Your first five images are free, every day. Write a prompt and see it drawn.
        </p>
        <Link to="/generate" className="btn btn-lg mt-6 border-0 bg-base-100 text-base-content hover:bg-base-200">
          Create your first image
          <Icon name="arrowRight" className="size-4" />
        </Link>
      </section>
    </div>
  );
}
