// /styles: all 27 styles as cards with previews and the NEW and popular badges, narrowed by family.
import { useState } from "react";
import { Link } from "wouter";
import { PageHeader } from "../../../ui/page-header";
import { STYLE_CATEGORIES, STYLES, type StyleCategory } from "../../../lib/style-catalog";
import { PREVIEW_CREDIT } from "../../../lib/preview-credit";
import { StyleCard } from "./style-card";

type Filter = "all" | "popular" | StyleCategory;

export default function StylesPage() {
  const [filter, setFilter] = useState<Filter>("all");
  const shown = STYLES.filter((s) => filter === "all" || (filter === "popular" ? s.isPopular : s.category === filter));
  const filters: { id: Filter; label: string }[] = [
    { id: "all", label: `All ${STYLES.length}` },
    { id: "popular", label: "Popular" },
    ...STYLE_CATEGORIES.map((c) => ({ id: c, label: c })),
  ];
  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title="Styles"
        lead={`${STYLES.length} styles, from photorealistic to pixel art. Pick one to open the generator with it and its sample prompt.`}
      />
      <div role="group" aria-label="Show styles" className="mb-6 flex flex-wrap gap-2">
        {filters.map((f) => (
          <button
            key={f.id}
            type="button"
            aria-pressed={filter === f.id}
            className={`btn btn-sm ${filter === f.id ? "btn-primary" : "btn-outline"}`}
            onClick={() => setFilter(f.id)}
          >
            {f.label}
          </button>
        ))}
      </div>
      <h2 className="sr-only">
        {filters.find((f) => f.id === filter)?.label} styles ({shown.length})
      </h2>
      <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4">
        {shown.map((s, i) => (
          <li key={s.id}>
            <StyleCard style={s} eager={i < 2} />
          </li>
        ))}
      </ul>
      <p className="mt-6 text-sm text-base-content/80">
        {PREVIEW_CREDIT}. With FLUX models configured, the same style gives a more detailed picture with the same
        character. Tips for every style are in the{" "}
        <Link to="/styles-library" className="link">
          styles library
        </Link>
        .
      </p>
    </div>
  );
}
