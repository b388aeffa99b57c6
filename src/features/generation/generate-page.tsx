// /generate (docs/spec.md §2): the page header and the generator. The app composes the quota alert in.
import type { ReactNode } from "react";
import { PageHeader } from "../../ui/page-header";
import { Generator } from "./components/generator";
import { preloadPromptEditor } from "./components/lazy-prompt-editor";

/** The router waits for this before drawing the page: the editor is part of its first screen. */
export const preload = preloadPromptEditor;

export default function GeneratePage({ limitAlert }: { limitAlert?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-7xl">
      <PageHeader
        title="Generate"
        lead="Write a prompt, pick a style, quality and aspect ratio, and generate. Offline, requests wait in the queue and run when you are back."
      />
      <Generator limitAlert={limitAlert} />
    </div>
  );
}
