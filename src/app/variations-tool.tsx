// The variations tool of the large view (decision 155), composed here because it joins two features: the
// variations feature's panel and the generator's queueing (features never import each other; decision 35).
import { useGenerationActions } from "../features/generation/use-generation";
import { VariationsTool } from "../features/variations/variations-panel";
import type { LargeViewToolProps } from "../ui/large-view-tools";

export default function AppVariationsTool(props: LargeViewToolProps) {
  const { generate } = useGenerationActions();
  return <VariationsTool {...props} queue={generate} />;
}
