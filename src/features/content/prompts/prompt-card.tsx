// One curated prompt: its text and settings, a copy button and a link that opens the generator with
// the prompt, style and settings filled in.
import { Link } from "wouter";
import { buildGenerateLink } from "../../../lib/generate-link";
import { styleById } from "../../../lib/style-catalog";
import { CopyButton } from "../copy-button";
import type { CuratedPrompt } from "./prompt-catalog";

export function promptLink(p: CuratedPrompt): string {
  return buildGenerateLink({
    prompt: p.prompt,
    style: p.style,
    aspectRatio: p.aspectRatio,
    negativePrompt: p.negativePrompt,
  });
}

export function PromptCard({
  prompt,
  showWhy = false,
  headingLevel = 3,
}: {
  prompt: CuratedPrompt;
  showWhy?: boolean;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="card h-full border border-base-300 bg-base-100">
      <div className="card-body gap-3">
        <Heading className="card-title text-base">{prompt.title}</Heading>
        <p className="rounded-field bg-base-200 px-3 py-2 font-mono text-sm leading-relaxed">{prompt.prompt}</p>
        <ul className="flex flex-wrap gap-1.5 text-xs" aria-label="Settings">
          <li className="badge badge-outline">{styleById(prompt.style)?.label ?? prompt.style}</li>
          <li className="badge badge-outline">{prompt.aspectRatio ?? "1:1"}</li>
          {prompt.negativePrompt && <li className="badge badge-outline">Not: {prompt.negativePrompt}</li>}
        </ul>
        {showWhy && prompt.why && <p className="text-sm text-base-content/80">{prompt.why}</p>}
        <div className="card-actions mt-auto items-center justify-between pt-1">
          <CopyButton text={prompt.prompt} what={`prompt: ${prompt.title}`} />
          <Link
            to={promptLink(prompt)}
            className="btn btn-sm btn-primary"
            aria-label={`Open in generator: ${prompt.title}`}
          >
            Open in generator
          </Link>
        </div>
      </div>
    </article>
  );
}
