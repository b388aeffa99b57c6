// The generator's page driven as a person would, for the benchmarks that measure it through the UI
// (bench/generator-bench.mjs, bench/client-cost-bench.mjs): a click to its image, a queued batch, the
// queue's counters, and what each generate-image answer said of its steps.
// The functions handed to page.evaluate run in the browser, where these exist.
/* global document, requestAnimationFrame, MutationObserver */

/** Clicks Generate in the page and waits (rAF) until the preview shows the decoded image of `prompt`. */
export async function clickToImage(page, prompt) {
  await page.getByLabel("Prompt", { exact: true }).fill(prompt);
  return page.evaluate(async (p) => {
    const button = [...document.querySelectorAll('form[aria-label="Generation settings"] button[type=submit]')].find(
      (b) => !b.disabled,
    );
    if (!button) throw new Error("Generate is disabled");
    const start = performance.now();
    button.click();
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      const img = [...document.querySelectorAll('[aria-label="Preview"] img')].find((i) => i.alt === p);
      if (img?.complete && img.naturalWidth > 0) {
        const total = performance.now() - start;
        // Where the time went, from the resource timings of this click's send and of the image shown.
        const entries = performance.getEntriesByType("resource").filter((e) => e.startTime >= start);
        const send = entries.find((e) => e.name.includes("/functions/v1/generate-image"));
        const image = img.currentSrc.startsWith("http") ? entries.find((e) => e.name === img.currentSrc) : undefined;
        // The IndexedDB transactions between the click and the send, in ms from the click.
        const sentAt = send ? send.startTime : performance.now();
        const txs = (globalThis.__benchIdb ?? [])
          .filter((x) => x.start >= start && x.start < sentAt)
          .map((x) => ({ ...x, start: x.start - start, end: (x.end ?? NaN) - start }));
        return {
          txs,
          total,
          beforeSend: send ? send.startTime - start : NaN,
          send: send ? send.responseEnd - send.startTime : NaN,
          afterAnswer: send ? (image ? image.startTime : performance.now()) - send.responseEnd : NaN,
          // The device's whole part after the answer, whatever the render took: to the frame that shows it.
          answerToShown: send ? start + total - send.responseEnd : NaN,
          imageFetch: image ? image.responseEnd - image.startTime : NaN,
          fromLocalBytes: !image,
        };
      }
      if (performance.now() - start > 60_000) throw new Error("no image within 60 s");
    }
  }, prompt);
}

/**
 * Waits in the page, on its DOM's changes, for a queue counter to read `value`: no polling from here, whose
 * evaluate calls would cost the page and the browser CPU the batch is measured with.
 */
export async function waitCounter(page, name, value, timeout = 120_000) {
  const reached = await page.evaluate(
    ([n, v, ms]) =>
      new Promise((resolve) => {
        const read = () => {
          const dt = [...document.querySelectorAll('dl[aria-label="Queue counters"] dt')].find(
            (d) => d.textContent.trim() === n,
          );
          return Number((dt?.parentElement?.querySelector("dd") ?? dt?.nextElementSibling)?.textContent ?? 0);
        };
        if (read() === v) return resolve(true);
        const observer = new MutationObserver(() => {
          if (read() !== v) return;
          observer.disconnect();
          clearTimeout(timer);
          resolve(true);
        });
        const timer = setTimeout(() => {
          observer.disconnect();
          resolve(false);
        }, ms);
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      }),
    [name, value, timeout],
  );
  if (!reached) throw new Error(`${name} never reached ${value}`);
}

export async function setConcurrency(page, n) {
  const value = page.getByLabel("Concurrency", { exact: true });
  for (let i = 0; i < 4 && Number(await value.textContent()) !== n; i++) {
    await page
      .getByRole("button", {
        name: Number(await value.textContent()) < n ? "Increase concurrency" : "Decrease concurrency",
      })
      .click();
  }
  if (Number(await value.textContent()) !== n) throw new Error(`concurrency stayed at ${await value.textContent()}`);
}

/**
 * Fills the generator for a batch of 8 at `concurrency` (finished tasks cleared first) and answers the
 * step that queues it: the click on Queue 8 tasks, then the concurrency where the queue card only shows then.
 */
export async function prepareBatch(page, concurrency, prompt = `A batch at concurrency ${concurrency}`) {
  // Concurrency is set on the queue card (shown while tasks exist) and kept across clears.
  const cardShown = await page.getByLabel("Concurrency", { exact: true }).isVisible();
  if (cardShown) await setConcurrency(page, concurrency);
  const clear = page.getByRole("button", { name: "Clear all" });
  if (await clear.isVisible()) await clear.click();
  await page.getByLabel("Prompt", { exact: true }).fill(prompt);
  const batch = page.getByLabel("Batch mode");
  if (!(await batch.isChecked())) await batch.check();
  const slider = page.getByLabel("Batch count");
  await slider.focus();
  while (Number(await slider.inputValue()) < 8) await page.keyboard.press("ArrowRight");
  return async () => {
    await page.getByRole("button", { name: /^Queue 8 tasks/ }).click();
    if (cardShown) return;
    await page.getByLabel("Concurrency", { exact: true }).waitFor();
    await setConcurrency(page, concurrency);
  };
}

/** The function's steps from a Server-Timing header: { body: ms, auth: ms, ..., total: ms }. */
export function serverTimings(header) {
  const phases = {};
  for (const m of (header ?? "").matchAll(/([\w-]+);dur=([\d.]+)/g)) phases[m[1]] = Number(m[2]);
  return phases;
}

/**
 * An init script: keeps each generate-image answer's steps in `__benchTimings`, from its Server-Timing
 * header or, for an answer streamed as events (decision 123), from its `timing` event (read from a clone),
 * and the settings the newest send asked for (style, quality, aspect ratio, negative prompt) in
 * `__benchSettings`, so a bare client can send what the app sent. Setting `__benchTimingsOff` stops it
 * (the clone it reads would count as the app's work).
 */
export function recordFunctionTimings() {
  const timings = [];
  globalThis.__benchTimings = timings;
  const original = globalThis.fetch;
  globalThis.fetch = async function (...args) {
    // Off (`__benchTimingsOff`), the page's sends cost it nothing more than the app's own work.
    if (globalThis.__benchTimingsOff) return original.apply(this, args);
    const url = typeof args[0] === "string" ? args[0] : (args[0]?.url ?? String(args[0]));
    const sent = url.includes("/functions/v1/generate-image") && typeof args[1]?.body === "string";
    if (sent) {
      try {
        const { style, quality, aspect_ratio, negative_prompt } = JSON.parse(args[1].body);
        globalThis.__benchSettings = { style, quality, aspect_ratio, negative_prompt };
      } catch {
        // Not JSON: the send goes as it is, and the blank page keeps the settings it last heard.
      }
    }
    const response = await original.apply(this, args);
    if (!url.includes("/functions/v1/generate-image")) return response;
    const header = response.headers.get("server-timing");
    if (header) timings.push(header);
    else if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      void response
        .clone()
        .text()
        .then((text) => {
          const event = /^event: timing\ndata: (.*)$/m.exec(text);
          if (event) timings.push(JSON.parse(event[1]));
        })
        .catch(() => undefined);
    }
    return response;
  };
}
