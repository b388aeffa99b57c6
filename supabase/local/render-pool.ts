// Built-in engine renders off the server's event loop: a pool of Deno Workers, one per core but one
// unless RENDER_WORKERS says otherwise, each running renderPng (render-worker.ts). A render takes hundreds of
// milliseconds of pure computation; on the event loop it would stall every REST, auth and realtime
// request meanwhile. Work beyond the pool's size waits in a queue, first come first served. A worker
// that dies is replaced; its render is rejected and the pool carries on.
import type { RenderFn } from "../functions/_shared/providers/builtin.ts";

type RenderInput = Parameters<RenderFn>[0];

/** What the pool posts to a worker, and what the worker answers. */
export type RenderRequest = { id: number; input: RenderInput };
export type RenderReply = { id: number; ok: true; bytes: Uint8Array } | { id: number; ok: false; message: string };

export interface RenderPool {
  /** Renders in a worker; the same signature as renderPng, so the engine's provider takes it as is. */
  render: RenderFn;
  readonly size: number;
  /** Renders running now and renders waiting for a worker. */
  load(): { running: number; queued: number };
  close(): void;
}

export interface RenderPoolOptions {
  size: number;
  /** The worker module (tests give one that misbehaves on purpose). */
  workerUrl?: URL;
}

interface Job {
  id: number;
  input: RenderInput;
  resolve: (bytes: Uint8Array) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

export const DEFAULT_WORKER_URL = new URL("./render-worker.ts", import.meta.url);

/**
 * One worker per core but one: that core is left to the event loop (REST, auth, realtime) and the
 * database. A worker per core made the workers take the server's CPU during a batch: on 2 cores REST p99
 * at 8 clients was 52 ms with 2 workers and 27 ms with 1 (bench/backend-bench.ts, PostgreSQL). Never
 * fewer than one; RENDER_WORKERS overrides.
 */
export function defaultPoolSize(): number {
  return Math.max(1, (navigator.hardwareConcurrency || 1) - 1);
}

export function createRenderPool(opts: RenderPoolOptions): RenderPool {
  const size = Math.max(1, Math.floor(opts.size));
  const workerUrl = opts.workerUrl ?? DEFAULT_WORKER_URL;
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  // Workers start on first use: a backend that never renders pays nothing for them.
  function spawn(): Slot {
    const slot: Slot = { worker: new Worker(workerUrl, { type: "module" }), job: null };
    slot.worker.onmessage = (e: MessageEvent<RenderReply>) => {
      const job = slot.job;
      if (!job || e.data.id !== job.id) return;
      slot.job = null;
      if (e.data.ok) job.resolve(e.data.bytes);
      else job.reject(new Error(e.data.message));
      pump();
    };
    // An error the worker did not catch leaves it in an unknown state: reject its job, replace it.
    slot.worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      const job = slot.job;
      slot.job = null;
      slot.worker.terminate();
      slots.splice(slots.indexOf(slot), 1);
      job?.reject(new Error(`render worker failed: ${e.message}`));
      pump();
    };
    slots.push(slot);
    return slot;
  }

  function pump(): void {
    while (!closed && queue.length) {
      const slot = slots.find((s) => !s.job) ?? (slots.length < size ? spawn() : null);
      if (!slot) return;
      const job = queue.shift()!;
      slot.job = job;
      slot.worker.postMessage({ id: job.id, input: job.input } satisfies RenderRequest);
    }
  }

  return {
    size,
    render(input) {
      if (closed) return Promise.reject(new Error("render pool closed"));
      return new Promise<Uint8Array>((resolve, reject) => {
        queue.push({ id: nextId++, input, resolve, reject });
        pump();
      });
    },
    load: () => ({ running: slots.filter((s) => s.job).length, queued: queue.length }),
    close() {
      closed = true;
      for (const s of slots) {
        s.worker.terminate();
        s.job?.reject(new Error("render pool closed"));
      }
      slots.length = 0;
      for (const j of queue.splice(0)) j.reject(new Error("render pool closed"));
    },
  };
}
