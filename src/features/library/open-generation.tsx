// The large view of the generation with this id, read live by id (so it stays open when a filter
// no longer lists it) and closed when the record disappears (deleted here or on another device).
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect } from "react";
import { getGeneration } from "../../db/queries";
import { GenerationDialog } from "./generation-dialog";

type Props = { id: string; userId: string | undefined; onClose: () => void };

export function OpenGeneration({ id, userId, onClose }: Props) {
  // null (not undefined) once the read is done and found nothing: undefined means still reading.
  const record = useLiveQuery(() => getGeneration(id).then((r) => (r && r.userId === userId ? r : null)), [id, userId]);
  useEffect(() => {
    if (record === null) onClose();
  }, [record, onClose]);
  return record ? <GenerationDialog record={record} userId={userId} onClose={onClose} /> : null;
}
