// /generate-audio: an honest page. PromptCanvas makes images; audio generation does not exist yet.
// It says what is planned and points to what works today.
import { Link } from "wouter";
import { PageHeader } from "../../../ui/page-header";

const PLANNED = [
  {
    title: "Sound from a prompt",
    body: 'Short sound effects and ambient loops described in words, like "rain on a tin roof".',
  },
  {
    title: "Music beds for images",
    body: "A few seconds of music in the mood of an image you made, for social posts.",
  },
  {
    title: "The same queue and history",
    body: "Audio would use the same queue, daily limit and offline history as images.",
  },
];

export default function AudioPage() {
  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageHeader
        title="Audio"
        eyebrow={<span className="badge badge-outline">Planned, not available</span>}
        lead="PromptCanvas makes images. Turning a prompt into sound is not available yet: there is no audio model behind this page, and nothing here will pretend otherwise."
      />
      <section aria-labelledby="audio-planned" className="rounded-box border border-base-300 p-6">
        <h2 id="audio-planned" className="text-xl font-bold">
          What is planned
        </h2>
        <ul className="mt-4 flex flex-col gap-4">
          {PLANNED.map((p) => (
            <li key={p.title}>
              <h3 className="font-semibold">{p.title}</h3>
              <p className="text-sm text-base-content/85">{p.body}</p>
            </li>
          ))}
        </ul>
        <p className="mt-4 text-sm text-base-content/80">
          No date is promised. This page will change when audio generation exists.
        </p>
      </section>
      <section aria-labelledby="audio-now" className="mt-8">
        <h2 id="audio-now" className="text-xl font-bold">
          What works today
        </h2>
        <div className="mt-3 flex flex-wrap gap-2">
          <Link to="/generate" className="btn btn-primary btn-sm">
            Generate an image
          </Link>
          <Link to="/text-effects" className="btn btn-outline btn-sm">
            Make a text effect
          </Link>
          <Link to="/more" className="btn btn-ghost btn-sm">
            All tools
          </Link>
        </div>
      </section>
    </div>
  );
}
