import { chromium } from "playwright-core";
const url = process.argv[2];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const ctx = await browser.newContext({ serviceWorkers: "block", viewport: { width: 412, height: 823 } });
await ctx.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
const page = await ctx.newPage();
const cdp = await ctx.newCDPSession(page);
await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "blink.user_timing", "loading"] });
await page.goto(url, { waitUntil: "networkidle" });
await page.waitForTimeout(2000);
const buf = await browser.stopTracing();
await browser.close();
const ev = JSON.parse(buf.toString()).traceEvents;
const main = ev.find((e) => e.name === "thread_name" && e.args.name === "CrRendererMain");
const tid = main.tid, pid = main.pid;
const mine = ev.filter((e) => e.pid === pid && e.tid === tid && e.ph === "X");
const tasks = mine.filter((e) => e.name === "RunTask" && e.dur > 30000).sort((a, b) => a.ts - b.ts);
const t0 = mine.find(e=>e.name==="RunTask").ts;
for (const t of tasks) {
  const kids = mine.filter((e) => e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e !== t && e.dur > 3000 && ["EvaluateScript","FunctionCall","v8.evaluateModule","ParseHTML","UpdateLayoutTree","Layout","ParseAuthorStyleSheet","TimerFire","FireAnimationFrame","EventDispatch","v8.compileModule","Paint","RunMicrotasks","V8.GCScavenger","MajorGC","MinorGC","HitTest","PrePaint","Layerize","v8.run"].includes(e.name));
  for (const k of kids.filter(k=>["UpdateLayoutTree","Layout"].includes(k.name))) console.log("   ", k.name, (k.dur/1000).toFixed(0), JSON.stringify(k.args?.beginData?.stackTrace?.slice(0,3) ?? k.args?.data?.stackTrace?.slice(0,3) ?? null), k.args?.elementCount ?? k.args?.beginData?.dirtyObjects ?? "");
  console.log(`${((t.ts - t0) / 1000).toFixed(0)}ms task ${(t.dur / 1000).toFixed(0)}ms: ` + kids.slice(0, 8).map((k) => `${k.name}${k.args?.data?.url ? "(" + k.args.data.url.split("/").pop() + ")" : k.args?.data?.functionName ? "(" + k.args.data.functionName + ")" : ""} ${(k.dur / 1000).toFixed(0)}`).join(", "));
}
