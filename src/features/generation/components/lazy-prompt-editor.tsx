// The prompt editor loads on demand; until it arrives the panel says 'Loading editor…' (docs/spec.md §2).
// A page that shows it from the start (/generate) preloads it with its own code: hydrating the
// prerendered field then finds the editor here and keeps that field (its text, its focus). A boundary
// still waiting for its code when the form re-renders would be drawn afresh, and a person typing into
// the prerendered field at that moment would lose the field under their fingers.
import { Suspense, type ComponentProps } from "react";
import { Loading } from "../../../ui/loading";

type EditorModule = typeof import("./prompt-editor");

let loaded: EditorModule | undefined;
let failed: { error: unknown } | undefined;
let pending: Promise<EditorModule> | undefined;

function load(): Promise<EditorModule> {
  return (pending ??= import("./prompt-editor").then(
    (m) => (loaded = m),
    (error: unknown) => {
      failed = { error };
      throw error;
    },
  ));
}

type EditorProps = ComponentProps<EditorModule["default"]>;

/** The editor once its code is here; until then it suspends, as React.lazy does (one component either way). */
function Editor(props: EditorProps) {
  if (failed) throw failed.error; // the error boundary's screen, as a failed React.lazy shows
  if (!loaded) throw load();
  return <loaded.default {...props} />;
}

/** Loads the editor's code ahead of its first render. */
export function preloadPromptEditor(): Promise<void> {
  return load().then(
    () => undefined,
    () => undefined, // the editor's own render shows the failure
  );
}

export function LazyPromptEditor(props: EditorProps) {
  return (
    <Suspense fallback={<Loading label="Loading editor…" />}>
      <Editor {...props} />
    </Suspense>
  );
}
