// /templates-library: every template, grouped by use, narrowed by a category filter.
import { useState } from "react";
import { PageHeader } from "../../../ui/page-header";
import { TemplateCard } from "./template-card";
import { TEMPLATE_CATEGORIES, TEMPLATES, type TemplateCategory } from "./template-catalog";

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

export default function TemplatesLibraryPage() {
  const [category, setCategory] = useState<TemplateCategory | "all">("all");
  const shown = TEMPLATE_CATEGORIES.filter((c) => category === "all" || c === category);
  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title="Templates Library"
        lead={`All ${TEMPLATES.length} templates, by what you are making. Each fills the generator with a tested prompt and settings.`}
      />
      <div role="group" aria-label="Filter by use" className="mb-8 flex flex-wrap gap-2">
        {(["all", ...TEMPLATE_CATEGORIES] as const).map((c) => (
          <button
            key={c}
            type="button"
            aria-pressed={category === c}
            className={`btn btn-sm ${category === c ? "btn-primary" : "btn-outline"}`}
            onClick={() => setCategory(c)}
          >
            {c === "all" ? "All templates" : c}
          </button>
        ))}
      </div>
      {shown.map((c) => (
        <section key={c} aria-labelledby={`templates-${slug(c)}`} className="mb-10">
          <h2 id={`templates-${slug(c)}`} className="mb-3 text-xl font-bold">
            {c}
          </h2>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {TEMPLATES.filter((t) => t.category === c).map((t) => (
              <li key={t.id}>
                <TemplateCard template={t} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
