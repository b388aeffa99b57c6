// /blog/ai-art-styles-guide: a tour of all 27 styles by family, with previews, what each suits, and
// how to choose between neighbours.
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { Link } from "wouter";
import { buildGenerateLink } from "../../../lib/generate-link";
import { STYLE_CATEGORIES, STYLES, stylePreviewSrc, type StyleCategory } from "../../../lib/style-catalog";
import { PREVIEW_CREDIT } from "../../../lib/preview-credit";
import { PostLayout } from "./post-layout";

const PATH = "/blog/ai-art-styles-guide";

const FAMILY_INTRO: Record<StyleCategory, string> = {
  "Photo & 3D":
    "Styles that imitate a camera or a 3D scene. Use them when the picture should look like something that could exist: products, places, mock-ups.",
  Painting:
    "Traditional media: thick oils, transparent watercolour, broken impressionist dabs, decorative Art Nouveau and dramatic Baroque light.",
  Illustration:
    "Drawn looks with outlines and flat colour: anime, cartoons, comics, line art, pencil sketches, pixel art, pop art and graffiti.",
  "Mood & graphic":
    "Styles defined by atmosphere or graphic design more than by a medium: neon, cyberpunk, gothic, fantasy, surreal, minimalist and abstract.",
};

const NEIGHBOURS = [
  [
    "Anime",
    "Cartoon",
    "Anime has luminous skies and cel shading for characters in a setting; Cartoon is rounder and flatter, better for mascots and children's books.",
  ],
  [
    "Cyberpunk",
    "Neon",
    "Cyberpunk paints a whole rainy city at night; Neon traces a few shapes in glowing tubes on black. Choose Neon for signs and logos.",
  ],
  [
    "Sketch",
    "Line Art",
    "Sketch shades with pencil hatching on cream paper; Line Art is clean ink outlines with no fill, ready to colour in.",
  ],
  [
    "Oil Painting",
    "Impressionist",
    "Oil Painting uses long directional strokes in warm pigments; Impressionist uses short dabs of pure colour that shimmer in light.",
  ],
  [
    "Digital Art",
    "Fantasy",
    "Digital Art is about saturated colour and glow; Fantasy adds mist, light rays and sparkles for an enchanted mood.",
  ],
  [
    "Photorealistic",
    "Vintage",
    "Both look photographic. Vintage ages the picture with sepia, scratches and a vignette.",
  ],
];

export default function StylesGuidePost() {
  return (
    <PostLayout path={PATH}>
      <p>
        A style is the single biggest decision after the prompt itself. The same words, &ldquo;a castle above a
        river&rdquo;, become a moody photograph, a storybook illustration or a glowing sign depending on the style you
        pick. PromptCanvas has {STYLE_IDS.length} styles. This guide groups them into four families, shows what each
        does, and helps you choose when two seem close.
      </p>
      <p>
        A note on the pictures: every preview here was drawn by PromptCanvas's built-in procedural renderer, which is
        not an AI model. It shows each style's palette, texture and technique honestly; with FLUX models configured, the
        same style gives a more detailed picture with the same character.
      </p>

      {STYLE_CATEGORIES.map((family) => (
        <section key={family} aria-labelledby={`family-${family.replace(/\W+/g, "-").toLowerCase()}`}>
          <h2 id={`family-${family.replace(/\W+/g, "-").toLowerCase()}`}>{family}</h2>
          <p>{FAMILY_INTRO[family]}</p>
          <ul className="!mt-6 !list-none !pl-0 grid gap-4 sm:grid-cols-2">
            {STYLES.filter((s) => s.category === family).map((s) => (
              <li key={s.id} className="!mt-0 flex gap-3 rounded-box border border-base-300 p-3">
                <img
                  src={stylePreviewSrc(s.id)}
                  alt={`${s.label} preview: ${s.previewPrompt}`}
                  width={96}
                  height={96}
                  loading="lazy"
                  decoding="async"
                  className="size-24 shrink-0 rounded-field object-cover"
                />
                <div className="text-sm">
                  <h3 className="!mt-0 !mb-1 !text-base">
                    {s.label}
                    {s.isNew && <span className="badge badge-secondary badge-sm ml-2 align-middle">NEW</span>}
                  </h3>
                  <p className="!mt-0">{s.description}</p>
                  <p className="!mt-1 text-base-content/80">{s.tip}</p>
                  <Link to={buildGenerateLink({ style: s.id, prompt: s.previewPrompt })} className="!mt-1 inline-block">
                    Try {s.label}
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <p className="text-xs text-base-content/70">{PREVIEW_CREDIT}.</p>

      <h2>Choosing between neighbours</h2>
      <p>Some styles sit close together. The difference usually comes down to one thing:</p>
      <ul>
        {NEIGHBOURS.map(([a, b, text]) => (
          <li key={a}>
            <strong>
              {a} or {b}?
            </strong>{" "}
            {text}
          </li>
        ))}
      </ul>

      <h2>Three rules that hold for every style</h2>
      <ol>
        <li>
          <strong>Let the picker name the style.</strong> Do not repeat or contradict it in the prompt; remote models
          already receive the style name.
        </li>
        <li>
          <strong>Compare styles with a fixed seed.</strong> Keep prompt and seed, change only the style, and you see
          the style's effect alone.
        </li>
        <li>
          <strong>Match the frame to the medium.</strong> Portrait styles (Art Nouveau, Baroque) suit 9:16; landscapes
          and cities suit 16:9.
        </li>
      </ol>
      <p>
        See all {STYLE_IDS.length} on the <Link to="/styles">styles page</Link>, go deeper into{" "}
        <Link to="/styles/photorealistic">Photorealistic</Link> and <Link to="/styles/anime">Anime</Link>, or start from
        a ready prompt in the <Link to="/prompt-library">prompt library</Link>.
      </p>
    </PostLayout>
  );
}
