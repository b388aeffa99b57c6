// CPU time by kind of process, read from Linux's /proc (elsewhere: null): how much of the machine a
// stretch of work took in the browser, the backend and its render processes, and the benchmark itself
// (the benchmark's own process tree only).
// Processes that exit in between are not counted; the benchmarks read it around work that keeps its
// processes.
import { execSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";

let ticksPerSecond;
function clockTicks() {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execSync("getconf CLK_TCK", { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** What a command line is: a Chromium process by its --type, the backend's render processes, Deno, Node. */
function kindOf(cmdline) {
  if (/chrom/i.test(cmdline.split(" ")[0] ?? "")) {
    const type = /--type=(\S+)/.exec(cmdline)?.[1];
    if (!type) return "Chromium browser";
    if (type === "renderer") return "Chromium renderer (the page)";
    if (type === "gpu-process") return "Chromium GPU (compositing)";
    return `Chromium ${type}`;
  }
  if (cmdline.includes("render-process.ts")) return "render processes";
  if (/(^|\/)deno\s/.test(cmdline)) return "backend (Deno)";
  if (/(^|\/)node\s/.test(cmdline)) return "Node (the benchmark, its app runner)";
  return null;
}

/**
 * CPU milliseconds (user + system) so far, summed by kind of process; null without /proc. Only this
 * process and those it started (the browser, the app and its backend, their children) count: whatever
 * else runs on the machine is not the benchmark's. `leaveOut`: a process whose command line holds this
 * text, with all it started, is not counted either (a second browser, measured on its own).
 */
export function cpuByKind({ leaveOut } = {}) {
  if (!existsSync("/proc/self/stat")) return null;
  const processes = new Map();
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      // ppid is field 4 of stat, utime and stime 14 and 15: 1, 11 and 12 after the command's parenthesis.
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
      processes.set(Number(pid), { pid: Number(pid), parent: Number(fields[1]), ms });
    } catch {
      // The process ended while being read.
    }
  }
  const commandLine = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    } catch {
      return null; // The process ended while being read.
    }
  };
  const ours = descendants(processes, [process.pid]);
  const left = leaveOut
    ? descendants(
        processes,
        [...ours].filter((pid) => commandLine(pid)?.includes(leaveOut)),
      )
    : [];
  for (const pid of left) ours.delete(pid);
  const totals = {};
  for (const pid of ours) {
    const line = commandLine(pid);
    const kind = line && kindOf(line);
    if (kind) totals[kind] = (totals[kind] ?? 0) + processes.get(pid).ms;
  }
  return totals;
}

/** `roots` and every process they started, from a map of pid to { pid, parent }. */
function descendants(processes, roots) {
  const found = new Set(roots);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of processes.values()) if (!found.has(p.pid) && found.has(p.parent) && found.add(p.pid)) grew = true;
  }
  return found;
}

/** The CPU each kind used between two readings of cpuByKind (kinds that used none are left out). */
export function cpuSince(before, after) {
  if (!before || !after) return null;
  return Object.fromEntries(
    Object.entries(after)
      .map(([kind, ms]) => [kind, ms - (before[kind] ?? 0)])
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1]),
  );
}

/** One line of CPU by kind divided by `sends`: "backend (Deno) 40 ms, ...". */
export function cpuLine(cpu, sends) {
  return Object.entries(cpu ?? {})
    .map(([kind, ms]) => `${kind} ${Math.round(ms / sends)} ms`)
    .join(", ");
}

/** The CPU of every kind but the backend's render processes, divided by `sends`. */
export function cpuBesidesRender(cpu, sends) {
  const all = Object.entries(cpu ?? {}).filter(([kind]) => kind !== "render processes");
  return all.reduce((sum, [, ms]) => sum + ms, 0) / sends;
}
