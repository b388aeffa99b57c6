// Where a fault schedule's wall time goes (FAULT_PROFILE=1 prints it): each step by kind, and each
// named wait inside (fixed pauses, polling loops, sign-in through the UI, a backend restart). The
// figures are wall time, so nested entries overlap their step's; they say where to look, not a sum.
// Also the machine's CPU use from /proc/stat, to know how much idle CPU parallel lanes could take.
import { readdirSync, readFileSync } from "node:fs";

/** Count, wall time and, when FAULT_PROFILE=cpu, CPU time of this process and its children (all lanes). */
export type Timing = { n: number; ms: number; maxMs: number; cpuMs: number };
export type Profile = Record<string, Timing>;

export function addTiming(into: Profile, name: string, ms: number, cpuMs = 0): void {
  const t = (into[name] ??= { n: 0, ms: 0, maxMs: 0, cpuMs: 0 });
  t.n += 1;
  t.ms += ms;
  t.maxMs = Math.max(t.maxMs, ms);
  t.cpuMs += cpuMs;
}

export function mergeProfile(into: Profile, from: Profile): void {
  for (const [name, t] of Object.entries(from)) {
    const i = (into[name] ??= { n: 0, ms: 0, maxMs: 0, cpuMs: 0 });
    i.n += t.n;
    i.ms += t.ms;
    i.maxMs = Math.max(i.maxMs, t.maxMs);
    i.cpuMs += t.cpuMs;
  }
}

/**
 * FAULT_PROFILE=cpu also gives each entry the CPU this process tree used meanwhile (a /proc walk, about
 * 3 ms, at each end of every timed wait: a second or so of CPU per schedule, so only when asked).
 */
const CPU_PER_ENTRY = process.env.FAULT_PROFILE === "cpu";

/** Times `work` under `name` in `profile` (also when it throws); with FAULT_PROFILE=cpu also its CPU. */
export async function timed<T>(profile: Profile, name: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const cpu = CPU_PER_ENTRY ? cpuClockMs() : 0;
  try {
    return await work();
  } finally {
    addTiming(profile, name, performance.now() - start, CPU_PER_ENTRY ? cpuClockMs() - cpu : 0);
  }
}

/** A start mark for `addSince`: wall and (FAULT_PROFILE=cpu) CPU clocks now. */
export function mark(): { wall: number; cpu: number } {
  return { wall: performance.now(), cpu: CPU_PER_ENTRY ? cpuClockMs() : 0 };
}

/** Adds the time since `from` under `name`. */
export function addSince(into: Profile, name: string, from: { wall: number; cpu: number }): number {
  const ms = performance.now() - from.wall;
  addTiming(into, name, ms, CPU_PER_ENTRY ? cpuClockMs() - from.cpu : 0);
  return ms;
}

/**
 * The profile as a table, largest total first: name, count, total s, mean ms, max ms, share of `wallMs`,
 * and under FAULT_PROFILE=cpu the CPU s (this process and its children: with several lanes, theirs overlap).
 */
export function profileTable(profile: Profile, wallMs: number): string {
  const rows = Object.entries(profile).sort((a, b) => b[1].ms - a[1].ms);
  const cpu = (text: string) => (CPU_PER_ENTRY ? ` ${text.padStart(6)}` : "");
  const head = `  ${"where".padEnd(40)} ${"count".padStart(6)} ${"total s".padStart(8)} ${"mean ms".padStart(8)} ${"max ms".padStart(7)} ${"share".padStart(6)}${cpu("CPU s")}`;
  return [
    head,
    ...rows.map(
      ([name, t]) =>
        `  ${name.padEnd(40)} ${String(t.n).padStart(6)} ${(t.ms / 1000).toFixed(1).padStart(8)} ${(t.ms / t.n).toFixed(0).padStart(8)} ${t.maxMs.toFixed(0).padStart(7)} ${((100 * t.ms) / Math.max(1, wallMs)).toFixed(0).padStart(5)}%${cpu((t.cpuMs / 1000).toFixed(1))}`,
    ),
  ].join("\n");
}

type CpuTicks = { idle: number; total: number };

function readCpu(): CpuTicks | null {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0];
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: idle time is idle + iowait.
    const idle = f[3] + (f[4] ?? 0);
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    return { idle, total };
  } catch {
    return null;
  }
}

/** Samples the machine's CPU every `everyMs`; `stop()` gives the mean and lowest idle share seen. */
export function sampleCpu(everyMs = 1000): { stop(): { meanIdle: number; minIdle: number; samples: number } | null } {
  const first = readCpu();
  let last = first;
  let minIdle = 1;
  let samples = 0;
  const timer = setInterval(() => {
    const now = readCpu();
    if (!now || !last) return;
    const dt = now.total - last.total;
    if (dt > 0) {
      minIdle = Math.min(minIdle, (now.idle - last.idle) / dt);
      samples += 1;
    }
    last = now;
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      const end = readCpu();
      if (!first || !end || end.total <= first.total) return null;
      return { meanIdle: (end.idle - first.idle) / (end.total - first.total), minIdle, samples };
    },
  };
}

/** The load averages, as `uptime` prints them. */
export function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "?";
  }
}

const TICKS_PER_S = 100;

type ProcTicks = { ticks: number; kind: string };

/** What a process is, for the CPU breakdown: its command, and for Chromium its process type. */
function processKind(pid: string, comm: string): string {
  if (!/chrom/i.test(comm)) return comm;
  try {
    const type = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, "utf8"));
    const sub = /--utility-sub-type=([a-zA-Z.]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, "utf8"));
    return `chromium ${type?.[1] ?? "browser"}${sub ? ` ${sub[1].split(".").pop()}` : ""}`;
  } catch {
    return "chromium";
  }
}

/** CPU ticks used so far by `root` and every process under it (a child that exited is not counted). */
function treeCpuTicks(root: number, kinds: Map<number, string>): Map<number, ProcTicks> {
  const parent = new Map<number, number>();
  const ticks = new Map<number, ProcTicks>();
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((n) => /^\d+$/.test(n));
  } catch {
    return ticks;
  }
  for (const p of pids) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces: fields are counted after the last ')'.
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(p), Number(f[1]));
      ticks.set(Number(p), { ticks: Number(f[11]) + Number(f[12]), kind: comm });
    } catch {
      // exited meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (p === root) return true;
    return false;
  };
  const mine = new Map<number, ProcTicks>();
  for (const [pid, t] of ticks) {
    if (!inTree(pid)) continue;
    let kind = kinds.get(pid);
    if (!kind) kinds.set(pid, (kind = processKind(String(pid), t.kind)));
    mine.set(pid, { ticks: t.ticks, kind });
  }
  return mine;
}

/**
 * The CPU this process and its children (browsers, backends) use, sampled every `everyMs` (each process's
 * last reading kept, so one that exits loses at most one interval): `stop()` gives cores used on average
 * and CPU seconds by kind of process.
 */
export function sampleTreeCpu(everyMs = 1000): {
  stop(): { cores: number; cpuSeconds: number; byKind: Record<string, number> };
} {
  const root = process.pid;
  const kinds = new Map<number, string>();
  const start = treeCpuTicks(root, kinds);
  const last = new Map(start);
  const began = performance.now();
  const take = () => {
    for (const [pid, t] of treeCpuTicks(root, kinds)) last.set(pid, t);
  };
  const timer = setInterval(take, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      take();
      let used = 0;
      const byKind: Record<string, number> = {};
      for (const [pid, t] of last) {
        const s = (t.ticks - (start.get(pid)?.ticks ?? 0)) / TICKS_PER_S;
        used += s;
        byKind[t.kind] = (byKind[t.kind] ?? 0) + s;
      }
      return { cores: used / ((performance.now() - began) / 1000), cpuSeconds: used, byKind };
    },
  };
}

let clock: { kinds: Map<number, string>; last: Map<number, ProcTicks>; base: Map<number, ProcTicks> } | null = null;

/**
 * CPU milliseconds this process and its children have used since the first call (a process that exited
 * keeps its last reading). Walks /proc, a few milliseconds: used only under FAULT_PROFILE=cpu.
 */
export function cpuClockMs(): number {
  if (!clock) {
    const kinds = new Map<number, string>();
    const base = treeCpuTicks(process.pid, kinds);
    clock = { kinds, last: new Map(base), base };
  }
  for (const [pid, t] of treeCpuTicks(process.pid, clock.kinds)) clock.last.set(pid, t);
  let ticks = 0;
  for (const [pid, t] of clock.last) ticks += t.ticks - (clock.base.get(pid)?.ticks ?? 0);
  return (ticks * 1000) / TICKS_PER_S;
}
