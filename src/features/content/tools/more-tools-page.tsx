// /more: the tools around the generator, split honestly into the ones that work today and the ones
// that are only planned.
import { STYLE_IDS } from "#shared/vocabulary/styles.ts";
import { Link } from "wouter";
import { Icon, type IconName } from "../../../ui/icons";
import { PageHeader } from "../../../ui/page-header";

const AVAILABLE: { title: string; body: string; to: string; icon: IconName }[] = [
  {
    title: "Generator",
    body: `Prompt to image with ${STYLE_IDS.length} styles, three qualities, three frames, seeds, references and batches.`,
    to: "/generate",
    icon: "sparkles",
  },
  {
    title: "Text Effects",
    body: "Outline, neon, gradient and 3D text, downloaded as PNG.",
    to: "/text-effects",
    icon: "type",
  },
  {
    title: "Advanced options",
    body: "Every setting explained, with a form that opens the generator ready to go.",
    to: "/advanced",
    icon: "sliders",
  },
  {
    title: "Prompt Library",
    body: "Tested prompts to copy or open, searchable by subject and style.",
    to: "/prompt-library",
    icon: "prompts",
  },
  {
    title: "Templates",
    body: "Fill-in-the-blank starting points for product shots, posters, avatars and more.",
    to: "/templates",
    icon: "templates",
  },
  {
    title: "Styles Library",
    body: `All ${STYLE_IDS.length} styles with previews and tips.`,
    to: "/styles-library",
    icon: "palette",
  },
  {
    title: "Upscale and Vary",
    body: "Open an image in your History: upscale it 2× or 4× on your device, or vary it subtly or strongly.",
    to: "/history",
    icon: "history",
  },
  {
    title: "Collections",
    body: "Sort your images into collections, or save a filter as a smart collection; zip one to download.",
    to: "/collections",
    icon: "folder",
  },
  {
    title: "Public Gallery",
    body: "Browse and search images other people chose to publish.",
    to: "/gallery",
    icon: "image",
  },
  {
    title: "Domain Diagnostics",
    body: "Check the host, service worker, backend and storage of this copy of the app.",
    to: "/domain-diagnostics",
    icon: "refresh",
  },
];

const PLANNED = [{ title: "Audio", body: "Sound from a prompt. See the audio page for what is planned." }];

export default function MoreToolsPage() {
  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader
        title="More Tools"
        lead="Everything around the generator that works today, and what is planned next."
      />
      <section aria-labelledby="tools-now">
        <h2 id="tools-now" className="mb-4 text-2xl font-bold">
          Available now
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {AVAILABLE.map((t) => (
            <li key={t.to}>
              <Link
                to={t.to}
                className="card h-full border border-base-300 bg-base-100 transition-colors hover:border-primary"
              >
                <span className="card-body">
                  <span className="grid size-10 place-items-center rounded-field bg-primary/10 text-primary">
                    <Icon name={t.icon} />
                  </span>
                  <span className="card-title text-base">{t.title}</span>
                  <span className="text-sm text-base-content/80">{t.body}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="tools-planned" className="mt-12">
        <h2 id="tools-planned" className="mb-4 text-2xl font-bold">
          Planned
        </h2>
        <ul className="grid gap-4 sm:grid-cols-3">
          {PLANNED.map((t) => (
            <li key={t.title} className="rounded-box border border-dashed border-base-300 p-5">
              <h3 className="font-semibold">
                {t.title} <span className="badge badge-ghost badge-sm ml-1">Not available yet</span>
              </h3>
              <p className="mt-1 text-sm text-base-content/80">{t.body}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
