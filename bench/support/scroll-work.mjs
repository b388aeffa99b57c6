// The page scrolled a fixed step per animation frame under a Chromium trace, as bench/history-bench.mjs
// measures it: per frame, the main thread's work (the tasks it ran between two animation frames, each
// frame marking itself with console.timeStamp) and the time between frames (the requestAnimationFrame
// delta). Headless Chromium paces frames at 60 Hz whatever the page costs, so the work is the figure
// that says whether a frame would fit; the deltas show frames actually missed.
/* global document, requestAnimationFrame, window */
import { traceDuring } from "./trace.mjs";

/**
 * Scrolls `step` px per frame for `frames` frames (back to the top at the bottom) and answers per
 * frame: `work` (main-thread busy ms), `intervals` (ms between frames), and `byName` (main-thread
 * time per trace event name over the whole run, nested events counted in each) for a breakdown.
 */
export async function scrollWork(page, step, frames) {
  const events = await traceDuring(
    page,
    { includedCategories: ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline"] },
    () =>
      page.evaluate(
        async ({ step, frames }) => {
          let y = window.scrollY;
          for (let i = 0; i <= frames; i++) {
            await new Promise((r) => requestAnimationFrame(r));
            console.timeStamp("bench-frame");
            const bottom = document.documentElement.scrollHeight - window.innerHeight;
            y = y + step > bottom ? 0 : y + step;
            window.scrollTo(0, y);
          }
        },
        { step, frames },
      ),
  );
  const marks = events.filter((e) => e.name === "TimeStamp" && e.args?.data?.message === "bench-frame");
  if (marks.length < 2) throw new Error("no frame marks in the trace");
  const { pid, tid } = marks[0];
  const onMain = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === "X");
  const named = (name) => onMain.filter((e) => e.name === name);
  const tasks = named("RunTask").length ? named("RunTask") : named("ThreadControllerImpl::RunTask");
  if (!tasks.length) throw new Error("no task events on the page's main thread in the trace");
  const work = [];
  const intervals = [];
  for (let i = 1; i < marks.length; i++) {
    const from = marks[i - 1].ts;
    const to = marks[i].ts;
    let busy = 0;
    for (const t of tasks) busy += Math.max(0, Math.min(to, t.ts + (t.dur ?? 0)) - Math.max(from, t.ts));
    work.push(busy / 1000);
    intervals.push((to - from) / 1000);
  }
  const byName = new Map();
  for (const e of onMain) byName.set(e.name, (byName.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  return { work, intervals, byName, frames: marks.length - 1 };
}
