// A style as a card: its preview (drawn by the built-in renderer), name, badges, description and a
// link that opens the generator with the style and its preview prompt.
import { Link } from "wouter";
import { buildGenerateLink } from "../../../lib/generate-link";
import { PREVIEW_SIZE_PX, stylePreviewSrc, type StyleEntry } from "../../../lib/style-catalog";
import { StyleBadges } from "./style-badges";

const DETAIL_PAGES = new Set(["photorealistic", "anime"]);

export function StyleCard({ style, eager = false }: { style: StyleEntry; eager?: boolean }) {
  return (
    <article className="card h-full overflow-hidden border border-base-300 bg-base-100">
      <div className="relative">
        <img
          src={stylePreviewSrc(style.id)}
          alt={`${style.label} preview: ${style.previewPrompt}`}
          width={PREVIEW_SIZE_PX}
          height={PREVIEW_SIZE_PX}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
          className="aspect-square w-full object-cover"
        />
      </div>
      <div className="card-body gap-2 p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="card-title text-base">{style.label}</h3>
          <StyleBadges style={style} />
        </div>
        <p className="text-sm text-base-content/80">{style.description}</p>
        <div className="card-actions mt-auto items-center justify-between pt-2">
          {DETAIL_PAGES.has(style.id) ? (
            <Link to={`/styles/${style.id}`} className="link link-primary text-sm">
              {style.label} guide
            </Link>
          ) : (
            <span />
          )}
          <Link
            to={buildGenerateLink({ style: style.id, prompt: style.previewPrompt })}
            className="btn btn-sm btn-outline"
            aria-label={`Use style: ${style.label}`}
          >
            Use style
          </Link>
        </div>
      </div>
    </article>
  );
}
