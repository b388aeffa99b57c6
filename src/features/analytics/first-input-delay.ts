// First input delay, measured from the browser's own `first-input` entry. The web-vitals library
// stopped measuring it in version 5 (INP replaced it as a core vital), but docs/spec.md §7 records it where
// the browser still reports the entry (Chromium and Firefox do; Safari does not, and then nothing is
// sent). The library's former rule is kept: only an input made while the page was visible counts.

export type FirstInputDelay = { value: number; delta: number; metricId: string };

type FirstInputEntry = PerformanceEntry & { processingStart: number };

/** When the page was first hidden, or Infinity; `visibility-state` entries exist in Chromium only. */
function firstHiddenTime(initiallyHidden: boolean): number {
  const entries = performance.getEntriesByType?.("visibility-state") ?? [];
  const hidden = entries.find((e) => e.name === "hidden");
  if (hidden) return hidden.startTime;
  return initiallyHidden ? 0 : Infinity;
}

/** Reports the delay once per page load (if there is an input); returns a stop function. */
export function onFirstInputDelay(report: (fid: FirstInputDelay) => void): () => void {
  if (typeof PerformanceObserver === "undefined") return () => undefined;
  if (!PerformanceObserver.supportedEntryTypes?.includes("first-input")) return () => undefined;
  const initiallyHidden = document.visibilityState === "hidden";
  const observer = new PerformanceObserver((list) => {
    const entry = list.getEntries()[0] as FirstInputEntry | undefined;
    if (!entry) return;
    observer.disconnect();
    if (entry.startTime >= firstHiddenTime(initiallyHidden)) return;
    const value = Math.max(0, entry.processingStart - entry.startTime);
    report({ value, delta: value, metricId: `fid-${Date.now()}-${Math.floor(Math.random() * 1e12)}` });
  });
  // `buffered` hands over an input made before this module loaded (it loads once the page is idle).
  observer.observe({ type: "first-input", buffered: true });
  return () => observer.disconnect();
}
