// /prompts: the editor's picks, one per kind of picture, each with a note on why it works, plus the
// anatomy of a good prompt. The full searchable list is /prompt-library.
import { Link } from "wouter";
import { PageHeader } from "../../../ui/page-header";
import { PromptCard } from "./prompt-card";
import { PROMPTS } from "./prompt-catalog";

const ANATOMY = [
  { part: "Subject", example: "a ginger cat", hint: "What the picture is of. One main subject reads best." },
  { part: "Setting", example: "in a snowy forest", hint: "Where it is, and what surrounds it." },
  { part: "Light and time", example: "at dawn, warm light from a cabin", hint: "The biggest single lever on mood." },
  { part: "Colour", example: "orange and deep blue", hint: "Two or three colour words steer every engine." },
  { part: "Style", example: "Anime (picked in the style list)", hint: "Set with the style picker, not in the text." },
];

export default function PromptsPage() {
  const picks = PROMPTS.filter((p) => p.pick);
  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title="Prompts"
        lead="Hand-picked prompts that work well, each with a note on why. Copy one, or open it in the generator with its style and settings already chosen."
      />
      <section aria-labelledby="anatomy-title" className="mb-12 rounded-box border border-base-300 p-5">
        <h2 id="anatomy-title" className="text-xl font-bold">
          Anatomy of a good prompt
        </h2>
        <div className="mt-3 overflow-x-auto">
          <table className="table table-sm">
            <thead>
              <tr>
                <th scope="col">Part</th>
                <th scope="col">Example</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {ANATOMY.map((a) => (
                <tr key={a.part}>
                  <th scope="row">{a.part}</th>
                  <td className="font-mono text-sm">{a.example}</td>
                  <td>{a.hint}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="picks-title">
        <h2 id="picks-title" className="mb-4 text-2xl font-bold">
          Editor's picks
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {picks.map((p) => (
            <li key={p.id}>
              <PromptCard prompt={p} showWhy />
            </li>
          ))}
        </ul>
      </section>
      <p className="mt-10 text-center">
        <Link to="/prompt-library" className="btn btn-outline">
          Browse all {PROMPTS.length} prompts in the library
        </Link>
      </p>
    </div>
  );
}
