// Built-in engine renders off the server: a pool of render processes (render-process.ts), one per core
// but one unless RENDER_WORKERS says otherwise, each started at a lower CPU priority (`nice`). A render
// takes hundreds of milliseconds of pure computation; on the event loop it would stall every REST, auth
// and realtime request meanwhile, and at the server's own priority it takes CPU the event loop and the
// database need. Work beyond the pool's size waits in a queue ordered by priority (the person's tier:
// premium before pro before free), first come first served within one priority; a render waiting long
// enough rises a step per AGING_MS waited, so a busy stream of paid renders delays a free one but never
// starves it (docs/decisions/153-paid-renders-start-first.md). A render whose caller gave up (its signal
// aborted) while it waited leaves the queue and is never drawn. A process that dies is replaced; its render is rejected and the pool carries on. Requests and replies are frames on
// the process's stdin and stdout (render-protocol.ts). The same processes decode untrusted reference
// images (decode), with a budget of CPU time: a decode that has used it up is answered image_too_slow
// and its process killed, so a hostile file costs at most that much of a low-priority core. CPU time,
// not the clock: a process at low priority on a busy machine gets little CPU, and a real picture must
// not be refused for the load of others (where the CPU time cannot be read, the clock is used). They
// also run the image check of a stored image before it is published (classify), within a budget of its
// own; a process loads the classifier at its first classify job and keeps it. A process may read only
// the folder of the classifier's WebAssembly files (it has no other permission).
import type { DecodedImage } from "../functions/_shared/image/decode.ts";
import { fail, type ImageResult } from "../functions/_shared/image/result.ts";
import { wasmDir } from "../functions/_shared/moderation/classifier.ts";
import type { ImageScores } from "../functions/_shared/moderation/image-verdict.ts";
import type { RenderOptions } from "../functions/_shared/providers/builtin.ts";
import {
  classifyReply,
  decodeReply,
  encodeClassifyRequest,
  encodeDecodeRequest,
  encodeRequest,
  FrameReader,
  type RenderInput,
  type ReplyHeader,
} from "./render-protocol.ts";

export interface RenderPool {
  /**
   * Renders in a process; renderPng's input, so the engine's provider takes it as is, and where it stands
   * among renders waiting for a process (`options.priority`, higher first).
   */
  render: (input: RenderInput, options?: RenderOptions) => Promise<Uint8Array>;
  /**
   * Decodes an untrusted image file in a process within the decoder's limits; a decode that has used
   * `budgetMs` of CPU time (or MAX_BUDGET_STRETCH times that of the clock) is image_too_slow. Time
   * waiting for a process is not counted. It waits in the same queue as renders, at `options.priority`.
   */
  decode: (file: Uint8Array, budgetMs: number, options?: RenderOptions) => Promise<ImageResult<DecodedImage>>;
  /**
   * The image check of a stored image file in a process (decode, then nsfwjs's scores), within `budgetMs`
   * of CPU time as a decode is; past it, image_too_slow.
   */
  classify: (file: Uint8Array, budgetMs: number) => Promise<ImageResult<ImageScores>>;
  readonly size: number;
  /** Renders running now and renders waiting for a process. */
  load(): { running: number; queued: number };
  /** Rejects what runs or waits, stops the processes; resolves once they have exited. */
  close(): Promise<void>;
}

export interface RenderPoolOptions {
  size: number;
  /** The program each process runs (tests give one that misbehaves on purpose). */
  processUrl?: URL;
  /** How much lower than the server's the renders' priority is, on nice's scale (0 to 19); 0 keeps it equal. */
  niceness?: number;
  /** A waiting job's priority rises by one for every this many milliseconds it has waited (AGING_MS). */
  agingMs?: number;
}

interface Job {
  /** Also the order jobs came in: ids only grow. */
  id: number;
  priority: number;
  /** When it joined the queue (performance.now()). */
  queuedAt: number;
  /** The request's frame (render-protocol.ts). */
  frame: Uint8Array;
  /** Milliseconds the job may run once a process has it; none for renders. */
  budgetMs?: number;
  /** Called when the budget runs out (the process is then killed). */
  overran?: () => void;
  resolve: (reply: { header: ReplyHeader; payload: Uint8Array }) => void;
  reject: (e: Error) => void;
}

interface Slot {
  child: Deno.ChildProcess;
  stdin: WritableStreamDefaultWriter<Uint8Array>;
  job: Job | null;
  /** The running job's budget timer. */
  budget?: ReturnType<typeof setTimeout>;
  /** Settles once the process has exited and its output is read. */
  done: Promise<void>;
}

export const DEFAULT_PROCESS_URL = new URL("./render-process.ts", import.meta.url);

/**
 * Renders run at nice 10: on Linux's scheduler a task at nice 0 gets about ten times the CPU of one at
 * nice 10 when both want it, so the event loop and the database take a core whenever they have work
 * and renders use the rest.
 */
export const DEFAULT_NICENESS = 10;

/**
 * A waiting job rises one priority step for every 10 s it has waited: a free render behind a stream of
 * premium ones starts within about 20 s (two steps) plus the renders ahead of it, far inside the
 * provider's deadline (110 s), while a paid render arriving behind free ones that have just queued still
 * goes first.
 */
export const AGING_MS = 10_000;

/**
 * One process per core but one: that core is left to the event loop (REST, auth, realtime) and the
 * database. A worker per core made the workers take the server's CPU during a batch: on 2 cores REST p99
 * at 8 clients was 52 ms with 2 workers and 27 ms with 1 (bench/backend-bench.ts, PostgreSQL). Never
 * fewer than one; RENDER_WORKERS overrides.
 */
export function defaultPoolSize(): number {
  return Math.max(1, (navigator.hardwareConcurrency || 1) - 1);
}

/** What a render process is given of the server's environment: where Deno keeps its cache, nothing secret. */
const PASSED_ENV = [
  "PATH",
  "HOME",
  "DENO_DIR",
  "XDG_CACHE_HOME",
  "TMPDIR",
  "LOCALAPPDATA",
  "USERPROFILE",
  "SystemRoot",
];

/** How much of a process's last error output a rejected render carries. */
const STDERR_TAIL = 2_000;

export function createRenderPool(opts: RenderPoolOptions): RenderPool {
  const size = Math.max(1, Math.floor(opts.size));
  const processUrl = opts.processUrl ?? DEFAULT_PROCESS_URL;
  const niceness = Math.min(19, Math.max(0, Math.floor(opts.niceness ?? DEFAULT_NICENESS)));
  const agingMs = Math.max(1, opts.agingMs ?? AGING_MS);
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;
  // Where `nice` is not a command (Windows, a minimal container), renders run at the server's priority.
  let niceFound = niceness > 0;

  function start(): Deno.ChildProcess {
    const deno = Deno.execPath();
    const wasm = wasmDir();
    const args = ["run", "--quiet", "--no-prompt", ...(wasm ? [`--allow-read=${wasm}`] : []), processUrl.href];
    // Deno's messages without colour codes, so a failure's message reads plainly.
    const env: Record<string, string> = { NO_COLOR: "1" };
    for (const name of PASSED_ENV) {
      const value = Deno.env.get(name);
      if (value !== undefined) env[name] = value;
    }
    const options = { stdin: "piped", stdout: "piped", stderr: "piped", clearEnv: true, env } as const;
    if (niceFound) {
      try {
        return new Deno.Command("nice", { ...options, args: ["-n", String(niceness), deno, ...args] }).spawn();
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
        niceFound = false;
      }
    }
    return new Deno.Command(deno, { ...options, args }).spawn();
  }

  // Processes start on first use: a backend that never renders pays nothing for them.
  function spawn(): Slot {
    const child = start();
    let stderr = "";
    const slot: Slot = { child, stdin: child.stdin.getWriter(), job: null, done: Promise.resolve() };
    const readReplies = (async () => {
      const frames = new FrameReader();
      for await (const chunk of child.stdout) {
        for (const { header, payload } of frames.push(chunk)) {
          const reply = header as ReplyHeader;
          const job = slot.job;
          if (!job || reply.id !== job.id) continue;
          slot.job = null;
          clearTimeout(slot.budget);
          job.resolve({ header: reply, payload });
          pump();
        }
      }
    })().catch(() => {
      // Output that is not the protocol: the process is in an unknown state.
      kill(child);
    });
    const readErrors = (async () => {
      for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
        stderr = (stderr + chunk).slice(-STDERR_TAIL);
      }
    })().catch(() => {});
    // A process that exits (a crash, a kill, a failed start) takes its render with it and is replaced.
    slot.done = Promise.all([child.status, readReplies, readErrors]).then(([status]) => {
      const at = slots.indexOf(slot);
      if (at >= 0) slots.splice(at, 1);
      const job = slot.job;
      slot.job = null;
      clearTimeout(slot.budget);
      slot.stdin.abort().catch(() => {});
      const why = lastError(stderr) || `exit code ${status.code}${status.signal ? ` (${status.signal})` : ""}`;
      job?.reject(new Error(`render process failed: ${why}`));
      pump();
    });
    slots.push(slot);
    return slot;
  }

  function submit(
    request: (id: number) => Pick<Job, "frame" | "budgetMs">,
    options: RenderOptions = {},
    overran?: () => void,
  ): Promise<{ header: ReplyHeader; payload: Uint8Array }> {
    if (closed) return Promise.reject(new Error("render pool closed"));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new Error("render abandoned before it started"));
    return new Promise((resolve, reject) => {
      const id = nextId++;
      const priority = Number.isFinite(options.priority) ? options.priority! : 0;
      const job: Job = { id, priority, queuedAt: performance.now(), ...request(id), resolve, reject };
      // The budget's end rejects the job at once: the caller does not wait for the process to exit.
      if (overran) job.overran = () => (overran(), reject(new Error("decode budget exceeded")));
      // A caller that gives up while its job waits takes it out of the queue; once running it runs out.
      if (signal) {
        const abandon = () => {
          const at = queue.indexOf(job);
          if (at < 0) return;
          queue.splice(at, 1);
          reject(new Error("render abandoned before it started"));
        };
        signal.addEventListener("abort", abandon, { once: true });
        const settle = () => signal.removeEventListener("abort", abandon);
        job.resolve = (reply) => (settle(), resolve(reply));
        job.reject = (e) => (settle(), reject(e));
      }
      queue.push(job);
      pump();
    });
  }

  /** The waiting job to run next: highest priority once aged, the earliest among equals. */
  function takeNext(): Job {
    const now = performance.now();
    const rank = (j: Job) => j.priority + Math.floor((now - j.queuedAt) / agingMs);
    let best = 0;
    for (let k = 1; k < queue.length; k++) {
      const a = rank(queue[k]), b = rank(queue[best]);
      if (a > b || (a === b && queue[k].id < queue[best].id)) best = k;
    }
    return queue.splice(best, 1)[0];
  }

  function pump(): void {
    while (!closed && queue.length) {
      const slot = slots.find((s) => !s.job) ?? (slots.length < size ? spawn() : null);
      if (!slot) return;
      const job = takeNext();
      slot.job = job;
      if (job.budgetMs !== undefined) watchBudget(slot, job, job.budgetMs);
      // A write to a process that has exited fails; its exit rejects the job.
      slot.stdin.write(job.frame).catch(() => kill(slot.child));
    }
  }

  /** Kills the slot's process once its job has used `budgetMs` of CPU time, checked as it may run out. */
  function watchBudget(slot: Slot, job: Job, budgetMs: number): void {
    const pid = slot.child.pid;
    const cpuAtStart = cpuMsOf(pid);
    const wallLimit = performance.now() + budgetMs * MAX_BUDGET_STRETCH;
    const check = (waitMs: number) => {
      slot.budget = setTimeout(() => {
        if (slot.job !== job) return;
        const now = cpuMsOf(pid);
        const left = cpuAtStart === null || now === null ? 0 : budgetMs - (now - cpuAtStart);
        const wallLeft = wallLimit - performance.now();
        if (left > 0 && wallLeft > 0) return check(Math.min(left, wallLeft));
        // Settled first: the exit that follows the kill then rejects a promise already settled.
        job.overran?.();
        kill(slot.child);
      }, waitMs);
    };
    check(budgetMs);
  }

  /** A job with a CPU budget: its reply, or null once the budget ran out (its process is then killed). */
  async function budgeted(frame: (id: number) => Uint8Array, budgetMs: number, options?: RenderOptions) {
    let overran = false;
    const request = (id: number) => ({ frame: frame(id), budgetMs });
    return await submit(request, options, () => overran = true).catch((e: Error) => {
      if (overran) return null;
      throw e;
    });
  }

  return {
    size,
    async render(input, options) {
      const { header, payload } = await submit((id) => ({ frame: encodeRequest(id, input) }), options);
      if (!header.ok) throw new Error(header.message);
      return payload;
    },
    async decode(file, budgetMs, options) {
      const reply = await budgeted((id) => encodeDecodeRequest(id, file), budgetMs, options);
      if (!reply) return fail("image_too_slow", `the image did not decode within ${budgetMs} ms`);
      const result = decodeReply(reply.header, reply.payload);
      if (result) return result;
      throw new Error(reply.header.ok ? "decode answered no image" : reply.header.message);
    },
    async classify(file, budgetMs) {
      const reply = await budgeted((id) => encodeClassifyRequest(id, file), budgetMs);
      if (!reply) return fail("image_too_slow", `the image was not checked within ${budgetMs} ms`);
      const result = classifyReply(reply.header);
      if (result) return result;
      throw new Error(reply.header.ok ? "classify answered no scores" : reply.header.message);
    },
    load: () => ({ running: slots.filter((s) => s.job).length, queued: queue.length }),
    async close() {
      closed = true;
      const stopping = slots.splice(0);
      for (const s of stopping) {
        s.job?.reject(new Error("render pool closed"));
        s.job = null;
        kill(s.child);
      }
      for (const j of queue.splice(0)) j.reject(new Error("render pool closed"));
      await Promise.all(stopping.map((s) => s.done));
    },
  };
}

/** However busy the machine, a budget of CPU time ends after this many times its length of the clock. */
const MAX_BUDGET_STRETCH = 4;

/** A process's CPU time so far (user and system), from Linux's /proc; null where it cannot be read. */
function cpuMsOf(pid: number): number | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat (11 and 12 after the name), in clock ticks: 100 a second on Linux.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

function kill(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGKILL");
  } catch {
    // already exited
  }
}

/** The error a dying process printed last (Deno's "error: Uncaught ..." line). */
function lastError(stderr: string): string {
  const lines = stderr.split("\n").map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => l.startsWith("error:")) ?? lines.at(-1) ?? "";
}
