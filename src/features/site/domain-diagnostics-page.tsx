// /domain-diagnostics: what this copy of the app believes about where it runs — host, production
// domain, banner and redirect decisions, backend reachability, service worker and connectivity.
import { useEffect, useState } from "react";
import { appConfig } from "../../api/config";
import { hostRedirectTarget, isLocalHost, showsDevelopmentBanner } from "../../lib/host-policy";
import { PageHeader } from "../../ui/page-header";

type Probe = { state: "checking" } | { state: "done"; text: string };

function useBackendProbe(url: string): Probe {
  const [probe, setProbe] = useState<Probe>(
    url ? { state: "checking" } : { state: "done", text: "No backend configured" },
  );
  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => controller.abort(), 5_000);
    fetch(`${url}/auth/v1/health`, { signal: controller.signal })
      .then((res) => setProbe({ state: "done", text: `Reachable (HTTP ${res.status})` }))
      .catch(() => setProbe({ state: "done", text: "Not reachable from this browser" }))
      .finally(() => window.clearTimeout(timer));
    return () => controller.abort();
  }, [url]);
  return probe;
}

export default function DomainDiagnosticsPage() {
  const config = appConfig();
  const host = window.location.hostname;
  const redirect = hostRedirectTarget(window.location, config.productionHost);
  const backend = useBackendProbe(config.supabaseUrl);
  const [swState, setSwState] = useState("Checking…");
  useEffect(() => {
    if (!("serviceWorker" in navigator)) {
      setSwState("Not supported by this browser");
      return;
    }
    navigator.serviceWorker.getRegistration().then((reg) => {
      if (!reg) setSwState("Not registered");
      else setSwState(navigator.serviceWorker.controller ? "Active and controlling this page" : "Registered");
    });
  }, []);

  const rows: [string, string][] = [
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
    ["Connection", navigator.onLine ? "Online" : "Offline"],
    ["Secure context", window.isSecureContext ? "Yes" : "No (service worker and storage may be limited)"],
  ];

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
