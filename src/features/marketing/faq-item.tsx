// One question and its answer as a native disclosure (the FAQ page, the home teaser, pricing).
import { Link } from "wouter";
import type { FaqEntry } from "./faq-teaser";

export function FaqItem({ entry, open = false }: { entry: FaqEntry; open?: boolean }) {
  return (
    <details id={entry.id} className="group collapse-arrow collapse border border-base-300 bg-base-100" open={open}>
      <summary className="collapse-title pe-10 font-semibold">{entry.question}</summary>
      <div className="collapse-content text-base-content/85">
        <p className="leading-relaxed">{entry.answer}</p>
        {entry.link && (
          <p className="mt-2">
            <Link to={entry.link.to} className="link link-primary">
              {entry.link.label}
            </Link>
          </p>
        )}
      </div>
    </details>
  );
}
