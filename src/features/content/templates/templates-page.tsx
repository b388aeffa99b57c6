// /templates: the featured templates as fill-in cards, and how templates work.
import { Link } from "wouter";
import { PageHeader } from "../../../ui/page-header";
import { TemplateCard } from "./template-card";
import { TEMPLATES } from "./template-catalog";

export default function TemplatesPage() {
  const featured = TEMPLATES.filter((t) => t.featured);
  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title="Templates"
        lead="Starting points for common jobs. Type your subject into the blank, check the prompt, and open the generator with the style, frame, quality and negative prompt already set."
      />
      <ol className="mb-10 grid gap-3 text-sm sm:grid-cols-3" aria-label="How templates work">
        {[
          "Pick a template for the job",
          "Type your subject into its blank",
          "Open the generator and press Generate",
        ].map((step, i) => (
          <li key={step} className="flex items-center gap-3 rounded-box bg-base-200 px-4 py-3">
            <span className="grid size-7 shrink-0 place-items-center rounded-full bg-primary font-bold text-primary-content">
              {i + 1}
            </span>
            {step}
          </li>
        ))}
      </ol>
      <section aria-labelledby="featured-title">
        <h2 id="featured-title" className="mb-4 text-2xl font-bold">
          Featured templates
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {featured.map((t) => (
            <li key={t.id}>
              <TemplateCard template={t} />
            </li>
          ))}
        </ul>
      </section>
      <p className="mt-10 text-center">
        <Link to="/templates-library" className="btn btn-outline">
          See all {TEMPLATES.length} templates in the library
        </Link>
      </p>
    </div>
  );
}
