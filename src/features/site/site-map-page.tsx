// /site-map: every public page, grouped, from the route table the router itself uses.
import { Link } from "wouter";
import { PageHeader } from "../../ui/page-header";

export type SiteMapEntry = { path: string; title: string; section: string; access: "public" | "protected" };

export default function SiteMapPage({ entries }: { entries: readonly SiteMapEntry[] }) {
  const sections = Array.from(new Set(entries.map((e) => e.section)));
  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader
        title="Site Map"
        lead={
          <>
            Every page of PromptCanvas in one place. Search engines read the same list from{" "}
            <a href="/sitemap.xml" className="link">
              sitemap.xml
            </a>
            .
          </>
        }
      />
      <div className="grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
        {sections.map((section) => (
          <section key={section} aria-labelledby={`sitemap-${section}`}>
            <h2 id={`sitemap-${section}`} className="mb-2 text-lg font-semibold">
              {section}
            </h2>
            <ul className="flex flex-col gap-1">
              {entries
                .filter((e) => e.section === section)
                .map((e) => (
                  <li key={e.path}>
                    <Link to={e.path} className="link link-hover">
                      {e.title}
                    </Link>
                    {e.access === "protected" && <span className="ml-2 text-xs text-base-content/70">(sign-in)</span>}
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
