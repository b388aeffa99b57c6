// /ai-image-generator, /free-ai-image-generator and /ai-art-generator: one layout, three texts
// (landing-content.ts), each page with its own heading, sections and calls to action.
import { Link } from "wouter";
import { Icon } from "../../ui/icons";
import { PageIcon } from "../../ui/page-icons";
import { buildGenerateLink } from "../../lib/generate-link";
import { PREVIEW_SIZE_PX, styleById, stylePreviewSrc } from "../../lib/style-catalog";
import { PREVIEW_CREDIT } from "../../lib/preview-credit";
import { LANDINGS, type LandingContent, type LandingSection } from "./landing-content";

function sectionId(title: string): string {
  return `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
}

function Section({ section }: { section: LandingSection }) {
  const id = sectionId(section.title);
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-2xl font-bold">
        {section.title}
      </h2>
      {"intro" in section && section.intro && <p className="mt-2 max-w-3xl text-base-content/80">{section.intro}</p>}
      <SectionBody section={section} />
    </section>
  );
}

function SectionBody({ section }: { section: LandingSection }) {
  switch (section.kind) {
    case "steps":
      return (
        <ol className="mt-6 grid gap-4 md:grid-cols-3">
          {section.steps.map((s, i) => (
            <li key={s.title} className="card border border-base-300 bg-base-100">
              <div className="card-body">
                <span className="grid size-9 place-items-center rounded-full bg-primary font-bold text-primary-content">
                  {i + 1}
                </span>
                <h3 className="card-title text-base">{s.title}</h3>
                <p className="text-sm text-base-content/80">{s.body}</p>
              </div>
            </li>
          ))}
        </ol>
      );
    case "points":
      return (
        <ul className="mt-6 grid gap-x-8 gap-y-5 sm:grid-cols-2">
          {section.points.map((p) => (
            <li key={p.title} className="flex gap-3">
              <PageIcon name="check" className="mt-1 size-5 shrink-0 text-success" />
              <div>
                <h3 className="font-semibold">{p.title}</h3>
                <p className="text-sm leading-relaxed text-base-content/80">{p.body}</p>
              </div>
            </li>
          ))}
        </ul>
      );
    case "table":
      return (
        <div className="mt-6 overflow-x-auto rounded-box border border-base-300">
          <table className="table">
            <thead>
              <tr>
                {section.head.map((h, i) => (
                  <th key={i} scope="col">
                    {h || <span className="sr-only">Feature</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {section.rows.map((row) => (
                <tr key={row[0]}>
                  {row.map((cell, i) =>
                    i === 0 ? (
                      <th key={i} scope="row" className="font-medium">
                        {cell}
                      </th>
                    ) : (
                      <td key={i}>{cell}</td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case "styles":
      return (
        <>
          <ul className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-4">
            {section.styleIds.map((id) => {
              const style = styleById(id);
              if (!style) return null;
              return (
                <li key={id}>
                  <Link
                    to={buildGenerateLink({ style: id, prompt: style.previewPrompt })}
                    className="group block overflow-hidden rounded-box border border-base-300"
                  >
                    <img
                      src={stylePreviewSrc(id)}
                      alt={`${style.label} preview: ${style.previewPrompt}`}
                      width={PREVIEW_SIZE_PX}
                      height={PREVIEW_SIZE_PX}
                      loading="lazy"
                      decoding="async"
                      className="aspect-square w-full object-cover"
                    />
                    <span className="block px-3 py-2 text-sm font-semibold">{style.label}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
          <p className="mt-2 text-xs text-base-content/70">{PREVIEW_CREDIT}.</p>
        </>
      );
    case "prompts":
      return (
        <ul className="mt-6 flex flex-col gap-3">
          {section.prompts.map((p) => (
            <li
              key={p.prompt}
              className="flex flex-col gap-3 rounded-box border border-base-300 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <div>
                <p className="font-medium">{p.prompt}</p>
                <p className="text-sm text-base-content/80">Style: {styleById(p.style)?.label ?? p.style}</p>
              </div>
              <Link
                to={buildGenerateLink({ prompt: p.prompt, style: p.style })}
                className="btn btn-sm btn-outline shrink-0"
                aria-label={`Open in generator: ${p.prompt}`}
              >
                Open in generator
              </Link>
            </li>
          ))}
        </ul>
      );
  }
}

export function LandingView({ content }: { content: LandingContent }) {
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-14 pb-8">
      <header className="pt-2 sm:pt-6">
        <span className="badge badge-soft badge-primary mb-4">{content.eyebrow}</span>
        <h1 className="text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">{content.title}</h1>
        <p className="mt-4 max-w-3xl text-lg leading-relaxed text-base-content/80">{content.lead}</p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link to={content.primary.to} className="btn btn-primary">
            {content.primary.label}
            <Icon name="arrowRight" className="size-4" />
          </Link>
          <Link to={content.secondary.to} className="btn btn-outline">
            {content.secondary.label}
          </Link>
        </div>
      </header>
      {content.sections.map((s) => (
        <Section key={s.title} section={s} />
      ))}
      <section aria-labelledby="landing-closing" className="rounded-box bg-base-200 px-6 py-10 text-center">
        <h2 id="landing-closing" className="text-2xl font-bold">
          {content.closing.title}
        </h2>
        <p className="mx-auto mt-2 max-w-xl text-base-content/80">{content.closing.body}</p>
        <Link to={content.primary.to} className="btn btn-primary mt-5">
          {content.primary.label}
        </Link>
      </section>
    </div>
  );
}

export default function LandingPage({ slug }: { slug: LandingContent["slug"] }) {
  return <LandingView content={LANDINGS[slug]} />;
}
