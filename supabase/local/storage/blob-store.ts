// Object bytes on disk at `${DATA_DIR}/storage/<bucket>/<name>`. Uploads are staged in a sibling
// folder and renamed into place, so a reader never sees a half-written file and a failed upload
// leaves nothing behind. Names reaching this module were already checked by object-key.ts; the
// resolved path is still verified to stay inside the bucket folder.
import { dirname, resolve, sep } from "node:path";
import { createKeyLocks } from "./key-locks.ts";

export interface BlobStore {
  /** Writes bytes to a staging file; returns its path for commit() or discard(). */
  stage(bytes: Uint8Array): Promise<string>;
  /** Moves a staged file into place, replacing any previous bytes of the object. */
  commit(staged: string, bucket: string, name: string): Promise<void>;
  discard(staged: string): Promise<void>;
  /** Copies an object's bytes to a staging file (for commit() under another name), or null when missing. */
  stageCopy(bucket: string, name: string): Promise<string | null>;
  /** Opens an object for reading, or null when its file is missing. */
  open(bucket: string, name: string): Promise<{ file: Deno.FsFile; size: number } | null>;
  /** Deletes an object's file (missing is fine) and any folders it leaves empty. */
  remove(bucket: string, name: string): Promise<void>;
  /**
   * Runs fn while no other write or removal of these objects runs (see key-locks.ts). Every object an
   * operation touches is named in this one call: a nested call would wait on its own outer hold when
   * both name one object, and two nested holders could each wait on the other.
   */
  locked<T>(objects: readonly ObjectRef[], fn: () => Promise<T>): Promise<T>;
}

/** An object as [bucket, name]. */
export type ObjectRef = readonly [bucket: string, name: string];

/** The object's path collides with another object's folder (a/b vs a/b/c). */
export class KeyCollision extends Error {}

export function createBlobStore(dataDir: string): BlobStore {
  const root = resolve(dataDir, "storage");
  const staging = resolve(dataDir, "storage-staging");
  const withKeys = createKeyLocks();

  function pathOf(bucket: string, name: string): string {
    const bucketDir = resolve(root, bucket);
    const p = resolve(bucketDir, name);
    if (!bucketDir.startsWith(root + sep) || !p.startsWith(bucketDir + sep)) {
      throw new Error(`object path escapes its bucket: ${bucket}/${name}`);
    }
    return p;
  }

  return {
    locked: (objects, fn) => withKeys(objects.map(([bucket, name]) => `${bucket}/${name}`), fn),

    async stage(bytes) {
      await Deno.mkdir(staging, { recursive: true });
      const p = resolve(staging, crypto.randomUUID());
      await Deno.writeFile(p, bytes);
      return p;
    },

    async commit(staged, bucket, name) {
      const target = pathOf(bucket, name);
      try {
        await Deno.mkdir(dirname(target), { recursive: true });
        await Deno.rename(staged, target);
      } catch (e) {
        if (e instanceof Deno.errors.AlreadyExists || e instanceof Deno.errors.IsADirectory || isNotDir(e)) {
          throw new KeyCollision(`${bucket}/${name}`);
        }
        throw e;
      }
    },

    async stageCopy(bucket, name) {
      await Deno.mkdir(staging, { recursive: true });
      const p = resolve(staging, crypto.randomUUID());
      try {
        await Deno.copyFile(pathOf(bucket, name), p);
        return p;
      } catch (e) {
        await Deno.remove(p).catch(() => {});
        if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.IsADirectory || isNotDir(e)) return null;
        throw e;
      }
    },

    async discard(staged) {
      await Deno.remove(staged).catch(() => {});
    },

    async open(bucket, name) {
      try {
        const file = await Deno.open(pathOf(bucket, name), { read: true });
        const info = await file.stat();
        if (!info.isFile) {
          file.close();
          return null;
        }
        return { file, size: info.size };
      } catch (e) {
        if (e instanceof Deno.errors.NotFound || isNotDir(e)) return null;
        throw e;
      }
    },

    async remove(bucket, name) {
      const target = pathOf(bucket, name);
      await Deno.remove(target).catch(() => {});
      const bucketDir = resolve(root, bucket);
      for (let dir = dirname(target); dir.startsWith(bucketDir + sep); dir = dirname(dir)) {
        try {
          await Deno.remove(dir); // only succeeds while empty
        } catch {
          break;
        }
      }
    },
  };
}

function isNotDir(e: unknown): boolean {
  return e instanceof Deno.errors.NotADirectory || (e as { code?: string })?.code === "ENOTDIR";
}
