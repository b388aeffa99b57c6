// The upscale tool of the large view (decision 154): the upscale feature's panel, handed to the library's
// large view by the app (features never import each other; decision 35).
import { UpscalePanel } from "../features/upscale/upscale-panel";
import type { LargeViewToolProps } from "../ui/large-view-tools";

export default function AppUpscaleTool({ generationId, recipe, image, src }: LargeViewToolProps) {
  return <UpscalePanel generationId={generationId} recipe={recipe} image={image} src={src} />;
}
