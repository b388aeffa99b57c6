// /styles/photorealistic and /styles/anime: a guide to one style — what it does, four example
// pictures with the prompts that made them, what it suits, how to prompt it, and settings to start.
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { Link } from "wouter";
import type { AspectRatio } from "#shared/vocabulary/generation.ts";
import type { StyleId } from "#shared/vocabulary/styles.ts";
import { buildGenerateLink } from "../../../lib/generate-link";
import { styleById } from "../../../lib/style-catalog";
import { PREVIEW_CREDIT } from "../../../lib/preview-credit";
import { Icon } from "../../../ui/icons";
import { PageIcon } from "../../../ui/page-icons";
import { StyleBadges } from "./style-badges";
import { Breadcrumbs } from "../breadcrumbs";

type Guide = {
  intro: string;
  examples: string[];
  suits: string[];
  tips: { title: string; body: string }[];
  start: { aspectRatio: AspectRatio; negativePrompt: string; prompt: string };
  related: StyleId[];
};

const GUIDES: Record<"photorealistic" | "anime", Guide> = {
  photorealistic: {
    intro:
      "Photorealistic aims for a picture that could have come from a camera: natural light, smooth gradients, soft atmospheric haze and a fine film grain. It is the default style, and the one to pick when the image must look believable.",
    examples: [
      "beach with boats at sunset",
      "a foggy forest with a river",
      "night city skyline in the rain",
      "a dog in the snow",
    ],
    suits: ["Landscapes and travel", "Product and food shots", "Architecture and interiors", "Stock-style backgrounds"],
    tips: [
      {
        title: "Describe light like a photographer",
        body: '"Golden hour", "overcast", "backlit", "blue hour": light decides whether a photo looks real or staged.',
      },
      {
        title: "One subject, one place",
        body: 'Real photos have a focus. Name the subject first, then where it is: "a red fishing boat in a quiet harbour".',
      },
      {
        title: "Add texture and weather",
        body: "Mist, rain, snow and reflections add the small irregularities that make a picture feel photographed.",
      },
      {
        title: "Keep the rest out",
        body: 'A negative prompt such as "text, watermark, people" keeps stock-style images clean.',
      },
    ],
    start: {
      aspectRatio: "16:9",
      negativePrompt: "text, watermark, people",
      prompt: "A red fishing boat in a quiet harbour at golden hour, mist over the water",
    },
    related: ["vintage", "3d-render", "digital-art"],
  },
  anime: {
    intro:
      "Anime draws with cel-shaded shapes, crisp outlines and big luminous sky gradients, the look of hand-drawn Japanese animation backgrounds. Characters, seasons and skies are where it shines.",
    examples: [
      "portrait of a girl with flowers",
      "a house on the hills under the stars",
      "a cat in a snowy forest",
      "the sea at sunset with birds",
    ],
    suits: [
      "Characters and avatars",
      "Scenic backgrounds and wallpapers",
      "Story and comic panels",
      "Seasonal greetings",
    ],
    tips: [
      {
        title: "Give the sky a job",
        body: 'Anime skies carry the mood: "towering summer clouds", "a sky full of stars", "orange sunset gradient".',
      },
      {
        title: "Name a season",
        body: "Cherry blossom spring, green summer hills, red autumn leaves or snow: seasons bring a ready palette.",
      },
      {
        title: "Characters in a place",
        body: '"A girl with a red scarf on a green hill" works better than a character alone on a blank background.',
      },
      {
        title: "Tall for characters, wide for scenes",
        body: "Use 9:16 for a standing character or a phone wallpaper, 16:9 for a landscape background.",
      },
    ],
    start: {
      aspectRatio: "9:16",
      negativePrompt: "text, extra people",
      prompt: "A girl with a red scarf on a green hill, towering summer clouds, warm afternoon light",
    },
    related: ["cartoon", "digital-art", "fantasy"],
  },
};

export default function StyleDetailPage({ slug }: { slug: "photorealistic" | "anime" }) {
  const style = styleById(slug)!;
  const guide = GUIDES[slug];
  return (
    <div className="mx-auto w-full max-w-5xl">
      <Breadcrumbs section={{ label: "Styles", to: "/styles" }} current={style.label} />
      <header className="mb-8 max-w-3xl">
        <div className="mb-3">
          <StyleBadges style={style} />
        </div>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{`${style.label} Style`}</h1>
        <p className="mt-3 text-lg leading-relaxed text-base-content/80">{guide.intro}</p>
        <Link to={buildGenerateLink({ style: slug, ...guide.start })} className="btn btn-primary mt-5">
          <Icon name="sparkles" className="size-4" />
          Try {style.label}
        </Link>
      </header>

      <section aria-labelledby="examples-title">
        <h2 id="examples-title" className="text-2xl font-bold">
          Examples
        </h2>
        <ul className="mt-4 grid grid-cols-2 gap-4 lg:grid-cols-4">
          {guide.examples.map((prompt, i) => (
            <li key={prompt}>
              <figure>
                <img
                  src={`/previews/examples/${slug}-${i + 1}.webp`}
                  alt={`${style.label}: ${prompt}`}
                  width={384}
                  height={384}
                  loading={i < 2 ? "eager" : "lazy"}
                  decoding="async"
                  className="aspect-square w-full rounded-box object-cover"
                />
                <figcaption className="mt-2 text-sm">
                  <span className="block font-mono">{prompt}</span>
                  <Link
                    to={buildGenerateLink({ style: slug, prompt })}
                    className="link link-primary"
                    aria-label={`Open this prompt: ${prompt}`}
                  >
                    Open this prompt
                  </Link>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-xs text-base-content/70">{PREVIEW_CREDIT}.</p>
      </section>

      <div className="mt-12 grid gap-10 md:grid-cols-[1fr_2fr]">
        <section aria-labelledby="suits-title">
          <h2 id="suits-title" className="text-xl font-bold">
            Good for
          </h2>
          <ul className="mt-3 flex flex-col gap-2">
            {guide.suits.map((s) => (
              <li key={s} className="flex items-center gap-2">
                <PageIcon name="check" className="size-4 text-success" />
                {s}
              </li>
            ))}
          </ul>
          <h2 className="mt-8 text-xl font-bold">Settings to start with</h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-semibold">Aspect ratio</dt>
            <dd>{guide.start.aspectRatio}</dd>
            <dt className="font-semibold">Negative prompt</dt>
            <dd>{guide.start.negativePrompt}</dd>
            <dt className="font-semibold">Seed</dt>
            <dd>Empty while exploring; fixed once a result is close</dd>
          </dl>
        </section>
        <section aria-labelledby="tips-title">
          <h2 id="tips-title" className="text-xl font-bold">
            How to prompt {style.label}
          </h2>
          <ul className="mt-3 grid gap-4 sm:grid-cols-2">
            {guide.tips.map((t) => (
              <li key={t.title} className="rounded-box bg-base-200 p-4">
                <h3 className="font-semibold">{t.title}</h3>
                <p className="mt-1 text-sm text-base-content/85">{t.body}</p>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <section aria-labelledby="related-title" className="mt-12">
        <h2 id="related-title" className="text-xl font-bold">
          Related styles
        </h2>
        <ul className="mt-3 flex flex-wrap gap-2">
          {guide.related.map((id) => {
            const r = styleById(id)!;
            return (
              <li key={id}>
                <Link to={`/styles-library#style-${id}`} className="btn btn-sm btn-outline">
                  {r.label}
                </Link>
              </li>
            );
          })}
          <li>
            <Link to="/styles" className="btn btn-sm btn-ghost">
              All {STYLE_IDS.length} styles
            </Link>
          </li>
        </ul>
      </section>
    </div>
  );
}
