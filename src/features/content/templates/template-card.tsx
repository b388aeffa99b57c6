// One template as a small form: type your subject, see the finished prompt, open the generator with
// the prompt and the template's style, frame, quality and negative prompt.
import { useId, useState } from "react";
import { Link } from "wouter";
import { buildGenerateLink } from "../../../lib/generate-link";
import { styleById } from "../../../lib/style-catalog";
import { fillTemplate, type Template } from "./template-catalog";

export function templateLink(t: Template, subject: string): string {
  return buildGenerateLink({
    prompt: fillTemplate(t, subject),
    style: t.style,
    aspectRatio: t.aspectRatio,
    quality: t.quality,
    negativePrompt: t.negativePrompt,
  });
}

export function TemplateCard({ template }: { template: Template }) {
  const [subject, setSubject] = useState("");
  const id = useId();
  return (
    <article className="card h-full border border-base-300 bg-base-100">
      <div className="card-body gap-3">
        <p className="text-xs font-semibold tracking-wide text-primary uppercase">{template.category}</p>
        <h3 className="card-title text-base">{template.title}</h3>
        <p className="text-sm text-base-content/80">{template.useCase}</p>
        <label className="floating-label mt-1" htmlFor={`${id}-subject`}>
          <span>{template.subjectLabel}</span>
          <input
            id={`${id}-subject`}
            className="input input-sm w-full"
            placeholder={`${template.subjectLabel}, e.g. ${template.exampleSubject}`}
            value={subject}
            maxLength={120}
            onChange={(e) => setSubject(e.target.value)}
          />
        </label>
        <p className="rounded-field bg-base-200 px-3 py-2 font-mono text-xs leading-relaxed" aria-live="polite">
          {fillTemplate(template, subject)}
        </p>
        <ul className="flex flex-wrap gap-1.5 text-xs" aria-label="Settings">
          <li className="badge badge-outline">{styleById(template.style)?.label ?? template.style}</li>
          <li className="badge badge-outline">{template.aspectRatio}</li>
          <li className="badge badge-outline">{template.quality} quality</li>
        </ul>
        <div className="card-actions mt-auto justify-end pt-1">
          <Link
            to={templateLink(template, subject)}
            className="btn btn-sm btn-primary"
            aria-label={`Use template: ${template.title}`}
          >
            Use template
          </Link>
        </div>
      </div>
    </article>
  );
}
