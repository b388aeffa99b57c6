// The tools the large view of a generation shows beside its own actions (src/ui/large-view-tools.ts). Each
// loads with the first large view that shows it, not with the app.
import { lazy, Suspense } from "react";
import type { LargeViewTool, LargeViewToolProps } from "../ui/large-view-tools";

/**
 * A tool's code, loaded with the first large view that shows it. Where it cannot be fetched (offline on a page
 * the service worker does not control yet) the view opens without that tool instead of failing.
 */
const toolOrNothing = (load: () => Promise<{ default: LargeViewTool }>) =>
  lazy(() => load().catch(() => ({ default: () => null })));

const Variations = toolOrNothing(() => import("./variations-tool"));
const Upscale = toolOrNothing(() => import("./upscale-tool"));

function VariationsWhenLoaded(props: LargeViewToolProps) {
  return (
    <Suspense fallback={null}>
      <Variations {...props} />
    </Suspense>
  );
}

function UpscaleWhenLoaded(props: LargeViewToolProps) {
  return (
    <Suspense fallback={null}>
      <Upscale {...props} />
    </Suspense>
  );
}

export const LARGE_VIEW_TOOLS: readonly LargeViewTool[] = [UpscaleWhenLoaded, VariationsWhenLoaded];
