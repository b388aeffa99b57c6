// Per-object locks inside this process. A write moves its bytes into place before its row commits and
// a removal deletes bytes after its row commits; without a lock, a removal racing a re-upload of the
// same name could delete the new bytes. The local backend is one process, so an in-memory lock per
// "<bucket>/<name>" is enough. Keys are taken in sorted order, so two multi-key holders cannot deadlock.

export type WithKeys = <T>(keys: string[], fn: () => Promise<T>) => Promise<T>;

export function createKeyLocks(): WithKeys {
  const tails = new Map<string, Promise<void>>();
  return async (keys, fn) => {
    const releases: (() => void)[] = [];
    try {
      for (const key of [...new Set(keys)].sort()) {
        const previous = tails.get(key) ?? Promise.resolve();
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        const tail = previous.then(() => held);
        tails.set(key, tail);
        releases.push(() => {
          release();
          if (tails.get(key) === tail) tails.delete(key);
        });
        await previous;
      }
      return await fn();
    } finally {
      for (const r of releases) r();
    }
  };
}
