// The large view of the generation with this id, read live by id (so it stays open when a filter
// no longer lists it) and closed when the record disappears (deleted here or on another device).
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import { getGeneration } from "../../db/queries";
import { GenerationDialog } from "./generation-dialog";

type Props = { id: string; userId: string | undefined; onClose: () => void };

export function OpenGeneration({ id, userId, onClose }: Props) {
  // The view may walk to another generation (a variation's lineage); a new id from the page starts over.
  const [shown, setShown] = useState({ from: id, id });
  const current = shown.from === id ? shown.id : id;
  const open = (next: string) => setShown({ from: id, id: next });
  // null (not undefined) once the read is done and found nothing: undefined means still reading.
  const record = useLiveQuery(
    () => getGeneration(current).then((r) => (r && r.userId === userId ? r : null)),
    [current, userId],
  );
  useEffect(() => {
    if (record === null) onClose();
  }, [record, onClose]);
  return record ? <GenerationDialog record={record} userId={userId} onClose={onClose} onOpen={open} /> : null;
}
