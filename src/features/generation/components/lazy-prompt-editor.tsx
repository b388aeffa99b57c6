// The prompt editor loads on demand; until it arrives the panel says 'Loading editor…' (spec §2).
import { lazy, Suspense, type ComponentProps } from "react";
import { Loading } from "../../../ui/loading";

const PromptEditor = lazy(() => import("./prompt-editor"));

export function LazyPromptEditor(props: ComponentProps<typeof PromptEditor>) {
  return (
    <Suspense fallback={<Loading label="Loading editor…" />}>
      <PromptEditor {...props} />
    </Suspense>
  );
}
