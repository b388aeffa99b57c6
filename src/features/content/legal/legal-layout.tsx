// The frame of the legal pages: title, the date that page's words last changed, a table of contents
// built from the sections, and the sections in readable measure.
import type { ReactNode } from "react";
import { PROSE } from "../blog/post-layout";

export type LegalSection = { id: string; title: string; body: ReactNode };

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "26 November 2026" for "2026-11-26", the same wherever the page is drawn (no locale, no time zone). */
export function longDate(iso: string): string {
  const [year, month, day] = iso.split("-").map(Number);
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

type Props = {
  title: string;
  /** The day this page's own words last changed (ISO), set by hand with every change of its text. */
  updated: string;
  lead: ReactNode;
  sections: LegalSection[];
};

export function LegalLayout({ title, updated, lead, sections }: Props) {
  return (
    <article className="mx-auto w-full max-w-3xl pb-8">
      <header>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        <p className="mt-2 text-sm text-base-content/80">
          Last updated <time dateTime={updated}>{longDate(updated)}</time>
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
