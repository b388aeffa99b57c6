// The tools the large view of a generation shows beside its own actions (src/ui/large-view-tools.ts), and
// those a selection of the person's images offers (src/ui/selection-tools.ts). Each loads with the first
// view that shows it, not with the app.
import { lazy, Suspense, type ComponentType } from "react";
import type { LargeViewTool } from "../ui/large-view-tools";
import type { SelectionTool } from "../ui/selection-tools";

/**
 * A tool whose code loads with the first view that shows it. Where it cannot be fetched (offline on a page
 * the service worker does not control yet) the view opens without that tool instead of failing.
 */
function whenLoaded<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const Tool = lazy(() => load().catch(() => ({ default: () => null })));
  return function ToolWhenLoaded(props: P) {
    return (
      <Suspense fallback={null}>
        <Tool {...props} />
      </Suspense>
    );
  };
}

export const LARGE_VIEW_TOOLS: readonly LargeViewTool[] = [
  whenLoaded(() => import("./upscale-tool")),
  whenLoaded(() => import("./variations-tool")),
  whenLoaded(() => import("./collection-tool")),
];

export const SELECTION_TOOLS: readonly SelectionTool[] = [
  whenLoaded(() => import("../features/collections/add-to-collection").then((m) => ({ default: m.AddToCollection }))),
];
