// /prompt-library: every curated prompt, narrowed by words, category and style. The filters live in
// the page (not the URL) so the prerendered page is the full, crawlable list.
import { useId, useMemo, useState } from "react";
import { PageHeader } from "../../../ui/page-header";
import { STYLES } from "../../../lib/style-catalog";
import { PromptCard } from "./prompt-card";
import { PROMPT_CATEGORIES, PROMPTS, matchesQuery, type PromptCategory } from "./prompt-catalog";

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

export default function PromptLibraryPage() {
  const [query, setQuery] = useState("");
  const [category, setCategory] = useState<PromptCategory | "all">("all");
  const [style, setStyle] = useState("all");
  const ids = useId();
  const styleIds = useMemo(() => new Set(PROMPTS.map((p) => p.style)), []);
  const shown = PROMPTS.filter(
    (p) =>
      (category === "all" || p.category === category) &&
      (style === "all" || p.style === style) &&
      matchesQuery(p, query),
  );
  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title="Prompt Library"
        lead={`${PROMPTS.length} tested prompts across ${PROMPT_CATEGORIES.length} subjects. Search them, filter by subject or style, and open any in the generator.`}
      />
      <form
        role="search"
        aria-label="Filter prompts"
        className="mb-6 grid gap-3 sm:grid-cols-[1fr_auto_auto]"
        onSubmit={(e) => e.preventDefault()}
      >
        <label className="input w-full">
          <span className="sr-only">Search prompts</span>
          <input
            type="search"
            placeholder="Search prompts, e.g. castle fog"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </label>
        <label className="select" htmlFor={`${ids}-category`}>
          <span className="label">Subject</span>
          <select
            id={`${ids}-category`}
            value={category}
            onChange={(e) => setCategory(e.target.value as PromptCategory | "all")}
          >
            <option value="all">All subjects</option>
            {PROMPT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="select" htmlFor={`${ids}-style`}>
          <span className="label">Style</span>
          <select id={`${ids}-style`} value={style} onChange={(e) => setStyle(e.target.value)}>
            <option value="all">All styles</option>
            {STYLES.filter((s) => styleIds.has(s.id)).map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </form>
      <p className="mb-4 text-sm text-base-content/80" role="status">
        {shown.length === PROMPTS.length
          ? `Showing all ${shown.length} prompts`
          : `${shown.length} of ${PROMPTS.length} prompts match`}
      </p>
      {PROMPT_CATEGORIES.map((c) => {
        const inCategory = shown.filter((p) => p.category === c);
        if (!inCategory.length) return null;
        return (
          <section key={c} aria-labelledby={`${ids}-${slug(c)}`} className="mb-10">
            <h2 id={`${ids}-${slug(c)}`} className="mb-3 text-xl font-bold">
              {c}
            </h2>
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {inCategory.map((p) => (
                <li key={p.id}>
                  <PromptCard prompt={p} />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
      {!shown.length && (
        <div className="rounded-box border border-dashed border-base-300 p-8 text-center">
          <p className="font-semibold">No prompt matches those filters.</p>
          <button
            type="button"
            className="btn btn-sm btn-outline mt-3"
            onClick={() => {
              setQuery("");
              setCategory("all");
              setStyle("all");
            }}
          >
            Clear filters
          </button>
        </div>
      )}
    </div>
  );
}
