// Chromium's tracing around some work in a page, over CDP: every event the trace collected, for the
// benchmarks' own breakdowns (bench/generator-bench.mjs, bench/support/scroll-work.mjs).

/** Runs `work` while Chromium traces `traceConfig` (a Tracing.start trace config) and answers the events. */
export async function traceDuring(page, traceConfig, work) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.start", { transferMode: "ReportEvents", traceConfig });
  try {
    await work();
  } finally {
    await cdp.send("Tracing.end");
    await complete;
    await cdp.detach();
  }
  return events;
}
