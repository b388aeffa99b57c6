// Removes every object under a folder of the generations bucket through the Storage API. Generated
// images sit one level deep (<uid>/<id>.png), but images uploaded by clients before uploads became the
// server's alone may sit in sub-folders, so those are walked too. Listing always starts at offset 0:
// each round removes what it listed, so the next listing shows what is left.
import { appError, fail, ok, type Result } from "../_shared/errors.ts";
import type { AccountStore } from "./account-store.ts";

/** Entries per listing; the Storage API answers at most 1000. */
export const LIST_PAGE_SIZE = 1000;
/** Sub-folder depth walked below the person's folder. */
const MAX_DEPTH = 8;
/** Listings per folder before giving up: 1000 rounds of 1000 objects is far beyond any account. */
const MAX_ROUNDS = 1000;

/** Removes the folder's objects; answers how many were removed. */
export async function purgeFolder(store: AccountStore, folder: string, depth = 0): Promise<Result<number>> {
  let removed = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const page = await store.listFolder(folder, LIST_PAGE_SIZE);
    if (!page.ok) return page;
    const { files, folders } = page.value;
    if (files.length === 0 && folders.length === 0) return ok(removed);
    let progress = 0;
    if (depth < MAX_DEPTH) {
      for (const sub of folders) {
        const inner = await purgeFolder(store, `${folder}/${sub}`, depth + 1);
        if (!inner.ok) return inner;
        progress += inner.value;
      }
    }
    if (files.length > 0) {
      const gone = await store.removeObjects(files.map((name) => `${folder}/${name}`));
      if (!gone.ok) return gone;
      progress += gone.value;
    }
    // Listed but not removable: looping again would list the same entries forever.
    if (progress === 0) {
      return fail(appError("server_error", { detail: `storage: ${folder} lists objects that cannot be removed` }));
    }
    removed += progress;
  }
  return fail(appError("server_error", { detail: `storage: ${folder} still lists objects after many rounds` }));
}
