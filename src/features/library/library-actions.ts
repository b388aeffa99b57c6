// Save, publish and delete from the library, each applied on this device at once and sent through
// the outbox (src/db/library.ts), with the spec's toasts (docs/spec.md §8): 'Generation deleted' / 'Failed to
// delete generation', and 'User not authenticated' when nobody is signed in.
import { deleteGeneration, setPublished, setSaved } from "../../db/library";
import { askPersistentStorage } from "../../db/offline-library";
import { showToast } from "../../state/toasts";

export const NOT_SIGNED_IN = "User not authenticated";
/** The write found no such generation of this person on the device (deleted meanwhile). */
const GONE = "This generation is no longer in your library.";

function failure(title: string, e: unknown): false {
  showToast({ tone: "error", title, message: e instanceof Error ? e.message : undefined });
  return false;
}

export async function toggleSaved(userId: string | undefined, id: string, saved: boolean): Promise<boolean> {
  if (!userId) return failure(NOT_SIGNED_IN, undefined);
  try {
    if (!(await setSaved(userId, id, saved))) throw new Error(GONE);
    // A saved image is kept for offline viewing: the moment to ask the browser to keep this site's data.
    if (saved) void askPersistentStorage();
    showToast({ tone: "success", title: saved ? "Saved" : "Removed from Saved" });
    return true;
  } catch (e) {
    return failure(saved ? "Failed to save generation" : "Failed to unsave generation", e);
  }
}

export async function togglePublished(userId: string | undefined, id: string, published: boolean): Promise<boolean> {
  if (!userId) return failure(NOT_SIGNED_IN, undefined);
  try {
    if (!(await setPublished(userId, id, published))) throw new Error(GONE);
    showToast({
      tone: "success",
      title: published ? "Published to the gallery" : "Removed from the gallery",
    });
    return true;
  } catch (e) {
    return failure(published ? "Failed to publish generation" : "Failed to unpublish generation", e);
  }
}

/** Deletes each id in turn; one toast for the lot. Resolves with how many were deleted. */
export async function removeGenerations(userId: string | undefined, ids: readonly string[]): Promise<number> {
  if (!userId) {
    failure(NOT_SIGNED_IN, undefined);
    return 0;
  }
  let done = 0;
  try {
    for (const id of ids) {
      if (!(await deleteGeneration(userId, id))) throw new Error(GONE);
      done += 1;
    }
  } catch (e) {
    failure("Failed to delete generation", e);
    return done;
  }
  showToast({
    tone: "success",
    title: "Generation deleted",
    message: ids.length > 1 ? `${ids.length} generations were deleted.` : undefined,
  });
  return done;
}
