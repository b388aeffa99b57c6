// /styles-library: every style in depth, by family: its look, a tip for prompting it, the prompt
// behind its preview (to copy or open), with a jump list to each family.
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { Link } from "wouter";
import { PageHeader } from "../../../ui/page-header";
import { buildGenerateLink } from "../../../lib/generate-link";
import { STYLE_CATEGORIES, STYLES, stylePreviewSrc } from "../../../lib/style-catalog";
import { PREVIEW_CREDIT } from "../../../lib/preview-credit";
import { CopyButton } from "../copy-button";
import { StyleBadges } from "./style-badges";

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

export default function StylesLibraryPage() {
  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader
        title="Styles Library"
        lead={`Each of the ${STYLE_IDS.length} styles in depth: what it looks like, what it suits, how to prompt it, and the exact prompt behind its preview.`}
      />
      <nav aria-label="Style families" className="mb-10">
        <ul className="flex flex-wrap gap-2">
          {STYLE_CATEGORIES.map((c) => (
            <li key={c}>
              <a href={`#${slug(c)}`} className="btn btn-sm btn-outline">
                {c} ({STYLES.filter((s) => s.category === c).length})
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {STYLE_CATEGORIES.map((c) => (
        <section key={c} id={slug(c)} aria-labelledby={`${slug(c)}-title`} className="mb-12 scroll-mt-24">
          <h2 id={`${slug(c)}-title`} className="mb-4 text-2xl font-bold">
            {c}
          </h2>
          <ul className="flex flex-col gap-4">
            {STYLES.filter((s) => s.category === c).map((s) => (
              <li
                key={s.id}
                id={`style-${s.id}`}
                className="flex flex-col gap-4 rounded-box border border-base-300 p-4 sm:flex-row"
              >
                <img
                  src={stylePreviewSrc(s.id)}
                  alt={`${s.label} preview: ${s.previewPrompt}`}
                  width={160}
                  height={160}
                  loading="lazy"
                  decoding="async"
                  className="aspect-square w-full shrink-0 rounded-field object-cover sm:size-40"
                />
                <div className="flex min-w-0 flex-1 flex-col gap-2">
                  <div className="flex flex-wrap items-center gap-2">
                    <h3 className="text-lg font-semibold">{s.label}</h3>
                    <StyleBadges style={s} />
                  </div>
                  <p>{s.description}</p>
                  <p className="text-sm text-base-content/85">
                    <span className="font-semibold">Tip:</span> {s.tip}
                  </p>
                  <p className="text-sm text-base-content/80">
                    Preview prompt: <span className="font-mono">{s.previewPrompt}</span>
                  </p>
                  <div className="mt-auto flex flex-wrap items-center gap-2 pt-1">
                    <CopyButton text={s.previewPrompt} what={`${s.label} preview prompt`} />
                    <Link
                      to={buildGenerateLink({ style: s.id, prompt: s.previewPrompt })}
                      className="btn btn-sm btn-primary"
                      aria-label={`Open in generator: ${s.label}`}
                    >
                      Open in generator
                    </Link>
                  </div>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <p className="text-sm text-base-content/80">{PREVIEW_CREDIT}.</p>
    </div>
  );
}
