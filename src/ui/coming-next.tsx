// The honest body of a page whose content ships in a later release: the route, title and frame
// are real; the body says what will be here and offers the places that already work.
import { Link } from "wouter";
import { Icon } from "./icons";
import { PageHeader } from "./page-header";

export type ComingNextProps = {
  title: string;
  summary: string;
  links?: { label: string; to: string }[];
};

export function ComingNext({ title, summary, links = [] }: ComingNextProps) {
  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader
        title={title}
        eyebrow={<span className="badge badge-outline badge-primary">Coming next</span>}
        lead={summary}
      />
      <section aria-labelledby="coming-next-heading" className="card border border-base-300 bg-base-200/50">
        <div className="card-body">
          <h2 id="coming-next-heading" className="card-title text-lg">
            This page is being built
          </h2>
          <p className="text-base-content/80">
            Its address and place in the navigation are final. Until its content arrives, these already work:
          </p>
          <ul className="mt-2 flex flex-wrap gap-2">
            {[...links, { label: "Home", to: "/" }, { label: "Site map", to: "/site-map" }].map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="btn btn-sm btn-outline">
                  {l.label}
                  <Icon name="arrowRight" className="size-4" />
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </div>
  );
}
