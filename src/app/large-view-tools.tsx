// The tools the large view of a generation shows beside its own actions (src/ui/large-view-tools.ts). Each
// loads with the first large view that shows it, not with the app.
import { lazy, Suspense } from "react";
import type { LargeViewTool, LargeViewToolProps } from "../ui/large-view-tools";

const Variations = lazy(() => import("./variations-tool"));
const Upscale = lazy(() => import("./upscale-tool"));

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
