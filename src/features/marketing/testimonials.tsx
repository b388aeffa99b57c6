// Three testimonials (docs/spec.md §1). They are written examples of how people use the product, and the
// section says so: the product has no verified customer quotes to show.
const TESTIMONIALS = [
  {
    quote:
      "I queue a week of post images on the train with no signal, and they're waiting in my history when I get to the office.",
    name: "Maya",
    role: "Social media manager",
  },
  {
    quote:
      "Same seed, one word changed: I can finally compare prompts properly instead of guessing what made the difference.",
    name: "Tomás",
    role: "Indie game artist",
  },
  {
    quote:
      "Five free images a day is plenty for lesson handouts, and the styles page shows my students what each look does.",
    name: "Priya",
    role: "Secondary school teacher",
  },
];

export function Testimonials() {
  return (
    <div>
      <h2 id="testimonials-title" className="text-center text-2xl font-bold sm:text-3xl">
        Made for creators and marketers
      </h2>
      <ul className="mt-8 grid gap-4 md:grid-cols-3">
        {TESTIMONIALS.map((t) => (
          <li key={t.name} className="card border border-base-300 bg-base-100">
            <figure className="card-body gap-4">
              <blockquote className="leading-relaxed text-base-content/90">“{t.quote}”</blockquote>
              <figcaption className="mt-auto flex items-center gap-3">
                <span
                  className="grid size-10 place-items-center rounded-full bg-primary/15 font-semibold text-primary"
                  aria-hidden="true"
                >
                  {t.name.charAt(0)}
                </span>
                <span>
                  <span className="block font-semibold">{t.name}</span>
                  <span className="block text-sm text-base-content/80">{t.role}</span>
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-center text-xs text-base-content/70">
        Illustrative examples of how people use PromptCanvas, not quotes from named customers.
      </p>
    </div>
  );
}
