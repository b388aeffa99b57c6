// The home page's "Discover styles" carousel (docs/spec.md §1): five sample cards in a scroll-snapping row,
// with previous/next buttons for pointer users. The pictures were drawn by the built-in renderer.
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { useRef } from "react";
import { Link } from "wouter";
import { Icon } from "../../ui/icons";
import { PageIcon } from "../../ui/page-icons";
import { buildGenerateLink } from "../../lib/generate-link";
import { PREVIEW_CREDIT } from "../../lib/preview-credit";

const CARDS = [
  {
    title: "Photoreal",
    style: "photorealistic",
    image: "photoreal",
    prompt: "snowy mountains above a lake",
    page: "/styles/photorealistic",
  },
  { title: "Illustration", style: "digital-art", image: "illustration", prompt: "a house by the sea at sunset" },
  { title: "Anime", style: "anime", image: "anime", prompt: "a cat on the hills at sunset", page: "/styles/anime" },
  { title: "3D Render", style: "3d-render", image: "3d-render", prompt: "a robot and a car on a studio floor" },
  { title: "Watercolor", style: "watercolor", image: "watercolor", prompt: "boats in a harbour below mountains" },
] as const;

export function StylesCarousel() {
  const track = useRef<HTMLUListElement>(null);
  const scroll = (direction: 1 | -1) => {
    const el = track.current;
    if (el) el.scrollBy({ left: direction * el.clientWidth * 0.8, behavior: "smooth" });
  };
  return (
    <div>
      <div className="mb-4 flex items-end justify-between gap-4">
        <div>
          <h2 id="styles-title" className="text-2xl font-bold sm:text-3xl">
            Discover styles
          </h2>
          <p className="mt-1 text-base-content/80">Five of the 27 looks. Open one to try it with its sample prompt.</p>
        </div>
        <div className="hidden gap-2 sm:flex">
          <button
            type="button"
            className="btn btn-circle btn-outline btn-sm"
            aria-label="Previous styles"
            onClick={() => scroll(-1)}
          >
            <PageIcon name="arrowLeft" className="size-4" />
          </button>
          <button
            type="button"
            className="btn btn-circle btn-outline btn-sm"
            aria-label="Next styles"
            onClick={() => scroll(1)}
          >
            <Icon name="arrowRight" className="size-4" />
          </button>
        </div>
      </div>
      {/* scroll-padding equals the padding, so the first card starts snapped: a snap scroll while the
          page loads would end Chrome's largest-contentful-paint measurement early. */}
      <ul
        ref={track}
        aria-labelledby="styles-title"
        className="-mx-4 flex snap-x snap-mandatory scroll-px-4 gap-4 overflow-x-auto px-4 pb-3 sm:mx-0 sm:scroll-px-0 sm:px-0"
      >
        {CARDS.map((card) => (
          <li key={card.title} className="w-56 shrink-0 snap-start sm:w-60">
            <Link
              to={buildGenerateLink({ prompt: card.prompt, style: card.style })}
              className="group block overflow-hidden rounded-box border border-base-300 bg-base-100"
            >
              <img
                src={`/previews/carousel/${card.image}.webp`}
                alt={`${card.title} sample: ${card.prompt}`}
                width={320}
                height={400}
                loading="lazy"
                decoding="async"
                className="aspect-[4/5] w-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
              />
              <span className="flex items-center justify-between px-4 py-3">
                <span className="font-semibold">{card.title}</span>
                <span className="text-sm text-primary">Try it</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-xs text-base-content/70">
        {PREVIEW_CREDIT}.{" "}
        <Link to="/styles" className="link">
          See all {STYLE_IDS.length} styles
        </Link>
      </p>
    </div>
  );
}
