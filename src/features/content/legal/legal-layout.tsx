// The frame of the legal pages: title, effective date, a table of contents built from the sections,
// and the sections in readable measure.
import type { ReactNode } from "react";
import { PROSE } from "../blog/post-layout";

export type LegalSection = { id: string; title: string; body: ReactNode };

export const LEGAL_UPDATED = "2026-11-21";

export function LegalLayout({ title, lead, sections }: { title: string; lead: ReactNode; sections: LegalSection[] }) {
  return (
    <article className="mx-auto w-full max-w-3xl pb-8">
      <header>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        <p className="mt-2 text-sm text-base-content/80">
          Last updated <time dateTime={LEGAL_UPDATED}>21 November 2026</time>
        </p>
        <div className="mt-4 text-lg leading-relaxed text-base-content/85">{lead}</div>
      </header>
      <nav aria-label="On this page" className="mt-8 rounded-box bg-base-200 p-4">
        <h2 className="text-sm font-semibold tracking-wide uppercase">On this page</h2>
        <ol className="mt-2 grid list-decimal gap-1 pl-5 text-sm sm:grid-cols-2">
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} className="link link-hover">
                {s.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <div className={PROSE}>
        {sections.map((s) => (
          <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="scroll-mt-24">
            <h2 id={`${s.id}-title`}>{s.title}</h2>
            {s.body}
          </section>
        ))}
      </div>
    </article>
  );
}
