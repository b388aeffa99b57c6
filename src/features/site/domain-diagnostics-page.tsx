// /domain-diagnostics: what this copy of the app believes about where it runs — host, production
// domain, banner and redirect decisions, backend reachability, service worker and connectivity.
import { useEffect, useState } from "react";
import { appConfig } from "../../api/config";
import { hostRedirectTarget, isLocalHost, showsDevelopmentBanner } from "../../lib/host-policy";
import { isOnline } from "../../lib/online";
import { useHydrated } from "../../lib/use-hydrated";
import { useOnline } from "../../lib/use-online";
import { PageHeader } from "../../ui/page-header";

type Probe = { state: "checking" } | { state: "done"; text: string };

/**
 * Asks the backend whether it is up: GET /auth/v1/health, then /rest/v1/ if that fails, both with
 * the public anon key (hosted Supabase answers 401 without it). Offline it asks nothing (the answer
 * is certain) and asks once the connection is back.
 */
function useBackendProbe(url: string, anonKey: string): Probe {
  const online = useOnline();
  const [probe, setProbe] = useState<Probe>(
    url ? { state: "checking" } : { state: "done", text: "No backend configured" },
  );
  useEffect(() => {
    if (!url) return;
    // The hook's first value during hydration is the server's (online): ask the browser itself.
    if (!online || !isOnline()) {
      setProbe({ state: "done", text: "Not checked while offline" });
      return;
    }
    setProbe({ state: "checking" });
    let left = false;
    const show = (next: Probe) => {
      if (!left) setProbe(next);
    };
    const controller = new AbortController();
    const timer = window.setTimeout(() => controller.abort(), 5_000);
    const headers: Record<string, string> = anonKey ? { apikey: anonKey, Authorization: `Bearer ${anonKey}` } : {};
    const get = (path: string) => fetch(`${url}${path}`, { headers, signal: controller.signal });
    get("/auth/v1/health")
      .then((res) => (res.ok ? res : get("/rest/v1/").then((rest) => (rest.ok ? rest : res))))
      .then((res) => {
        const where = new URL(res.url).pathname;
        show({
          state: "done",
          text: res.ok
            ? `Reachable (${where} answered HTTP ${res.status})`
            : `Answering with HTTP ${res.status} at ${where}`,
        });
      })
      .catch(() =>
        show({
          state: "done",
          text: controller.signal.aborted ? "No answer within 5 seconds" : "Not reachable from this browser",
        }),
      )
      .finally(() => window.clearTimeout(timer));
    return () => {
      left = true;
      controller.abort();
    };
  }, [url, anonKey, online]);
  return probe;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

/** What this site stores on the device and how much it may store (navigator.storage.estimate()). */
function useStorageEstimate(): string {
  const [text, setText] = useState("Checking…");
  useEffect(() => {
    if (!navigator.storage?.estimate) {
      setText("Not reported by this browser");
      return;
    }
    let live = true;
    Promise.all([navigator.storage.estimate(), navigator.storage.persisted?.() ?? Promise.resolve(false)])
      .then(([{ usage = 0, quota = 0 }, persisted]) => {
        if (live)
          setText(`${formatBytes(usage)} used of ${formatBytes(quota)} available${persisted ? " (persistent)" : ""}`);
      })
      .catch(() => live && setText("Not reported by this browser"));
    return () => {
      live = false;
    };
  }, []);
  return text;
}

export default function DomainDiagnosticsPage() {
  const config = appConfig();
  // Prerendered (and while hydrating) the page shows placeholders; the browser fills them in.
  const here = useHydrated() ? window.location : null;
  const host = here?.hostname ?? "Checking…";
  const redirect = here ? hostRedirectTarget(here, config.productionHost) : null;
  const backend = useBackendProbe(config.supabaseUrl, config.supabaseAnonKey);
  const storage = useStorageEstimate();
  const [swState, setSwState] = useState("Checking…");
  useEffect(() => {
    if (!("serviceWorker" in navigator)) {
      setSwState("Not supported by this browser");
      return;
    }
    let live = true;
    const show = () => {
      if (live) setSwState(navigator.serviceWorker.controller ? "Active and controlling this page" : "Registered");
    };
    navigator.serviceWorker.getRegistration().then((reg) => {
      if (!live) return;
      if (reg) return show();
      // The app registers its worker once the page has settled (lib/page-settled.ts): say so when it does.
      setSwState("Not registered yet");
      void navigator.serviceWorker.ready.then(show);
    });
    return () => {
      live = false;
    };
  }, []);

  const rows: [string, string][] = (
    [
      ["This host", host],
      ["Production domain", config.productionHost || "Not configured"],
      ["Development banner", showsDevelopmentBanner(host, config.productionHost) ? "Shown" : "Hidden"],
      [
        "Host redirect",
        redirect
          ? `To ${redirect}`
          : isLocalHost(host)
            ? "None (local host)"
            : config.productionHost
              ? "None (this is the production domain)"
              : "None (no production domain configured)",
      ],
      ["Backend URL", config.supabaseUrl || "Not configured"],
      ["Backend", backend.state === "checking" ? "Checking…" : backend.text],
      ["Service worker", swState],
      ["Storage on this device", storage],
      ["Connection", here && isOnline() ? "Online" : "Offline"],
      ["Secure context", here && window.isSecureContext ? "Yes" : "No (service worker and storage may be limited)"],
    ] as [string, string][]
  ).map(([label, value]) => [label, here ? value : "Checking…"]);

  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageHeader title="Domain Diagnostics" lead="How this copy of PromptCanvas sees its environment." />
      <div className="overflow-x-auto rounded-box border border-base-300">
        <table className="table">
          <tbody>
            {rows.map(([label, value]) => (
              <tr key={label}>
                <th scope="row" className="w-32 align-top font-medium sm:w-48">
                  {label}
                </th>
                <td className="[overflow-wrap:anywhere]">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
