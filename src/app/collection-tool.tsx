// "Add to collection" (decision 157) for the large view's image and for a selection of the person's own
// images: the collections feature's picker, handed to the library by the app (features never import each
// other; decision 35).
import { AddToCollection } from "../features/collections/add-to-collection";
import type { LargeViewToolProps } from "../ui/large-view-tools";

export default function AppCollectionTool({ generationId }: LargeViewToolProps) {
  return <AddToCollection generationIds={[generationId]} />;
}
