// /status: the image engines this deployment offers and how each has done over the last 24 hours —
// calls, the share that made no image, and the median and 95th-percentile time from the engine call
// to the image stored — all computed by the database from the generate function's own notes of each
// call (src/api/engine-health.ts). No uptime figure is claimed that was not measured. Offline it
// says so and asks again when the connection returns.
import { useCallback, useEffect, useState } from "react";
import {
  fetchConfiguredEngines,
  fetchEngineHealth,
  type ConfiguredEngines,
  type EngineFigures,
} from "../../api/engine-health";
import { providerName } from "../../lib/model-names";
import { isOnline } from "../../lib/online";
import { useHydrated } from "../../lib/use-hydrated";
import { useOnline } from "../../lib/use-online";
import { PageHeader } from "../../ui/page-header";

type Loaded = { engines: ConfiguredEngines | null; figures: EngineFigures[]; at: Date };
type State =
  | { state: "checking" }
  | { state: "offline" }
  | { state: "failed"; message: string }
  | { state: "loaded"; data: Loaded };

const seconds = (ms: number | null) =>
  ms === null ? "—" : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

const percent = (part: number, whole: number) =>
  whole === 0 ? "—" : `${((part / whole) * 100).toFixed(part === 0 || part === whole ? 0 : 1)}%`;

function useStatus(): [State, () => void] {
  const online = useOnline();
  const hydrated = useHydrated();
  const [state, setState] = useState<State>({ state: "checking" });
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (!hydrated) return;
    if (!online || !isOnline()) {
      setState({ state: "offline" });
      return;
    }
    let live = true;
    setState({ state: "checking" });
    void Promise.all([fetchConfiguredEngines(), fetchEngineHealth()]).then(([engines, figures]) => {
      if (!live) return;
      if (!figures.ok) {
        setState({ state: "failed", message: figures.error.message });
        return;
      }
      setState({
        state: "loaded",
        data: { engines: engines.ok ? engines.value : null, figures: figures.value, at: new Date() },
      });
    });
    return () => {
      live = false;
    };
  }, [hydrated, online, asked]);
  return [state, useCallback(() => setAsked((n) => n + 1), [])];
}

function EngineTable({ data }: { data: Loaded }) {
  const byId = new Map(data.figures.map((f) => [f.provider, f]));
  const ids = [...new Set([...(data.engines?.available ?? []), ...data.figures.map((f) => f.provider)])];
  return (
    <div className="overflow-x-auto rounded-box border border-base-300">
      <table className="table">
        <caption className="sr-only">Image engines over the last 24 hours</caption>
        <thead>
          <tr>
            <th scope="col">Engine</th>
            <th scope="col" className="text-right">
              Calls
            </th>
            <th scope="col" className="text-right">
              No image
            </th>
            <th scope="col" className="text-right">
              Median time to image
            </th>
            <th scope="col" className="text-right">
              95th percentile
            </th>
          </tr>
        </thead>
        <tbody>
          {ids.map((id) => {
            const f = byId.get(id);
            const offered = data.engines?.available.includes(id);
            return (
              <tr key={id} data-engine={id}>
                <th scope="row" className="font-medium">
                  {providerName(id)}
                  {data.engines?.default === id ? (
                    <span className="badge badge-ghost badge-sm ml-2">default</span>
                  ) : null}
                  {data.engines && !offered ? (
                    <span className="block text-xs font-normal text-base-content/70">no longer configured</span>
                  ) : null}
                </th>
                <td className="text-right tabular-nums">{f ? f.attempts.toLocaleString() : "0"}</td>
                <td className="text-right tabular-nums">{f ? percent(f.failures, f.attempts) : "—"}</td>
                <td className="text-right tabular-nums">{seconds(f?.p50Ms ?? null)}</td>
                <td className="text-right tabular-nums">{seconds(f?.p95Ms ?? null)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export default function StatusPage() {
  const [status, refresh] = useStatus();
  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageHeader
        title="System Status"
        lead="How each image engine has done over the last 24 hours, measured from this product's own records."
      />
      <section aria-labelledby="engines-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="engines-heading" className="text-lg font-semibold">
            Image engines
          </h2>
          <button
            type="button"
            className="btn btn-sm"
            onClick={refresh}
            disabled={status.state === "checking" || status.state === "offline"}
          >
            Refresh
          </button>
        </div>
        <div aria-live="polite">
          {status.state === "checking" ? <p className="text-base-content/80">Checking…</p> : null}
          {status.state === "offline" ? (
            <p role="status" className="text-base-content/80">
              Not checked while offline. The figures load when the connection returns.
            </p>
          ) : null}
          {status.state === "failed" ? (
            <p role="alert" className="text-error">
              The figures could not be loaded: {status.message}
            </p>
          ) : null}
          {status.state === "loaded" ? (
            <div className="flex flex-col gap-2">
              <EngineTable data={status.data} />
              <p className="text-sm text-base-content/80" data-testid="status-summary">
                {status.data.figures.length === 0
                  ? "No engine was called in the last 24 hours, so there is no time to show yet."
                  : `${status.data.figures.reduce((n, f) => n + f.attempts, 0).toLocaleString()} engine calls in the last 24 hours.`}{" "}
                Checked at {status.data.at.toLocaleTimeString()}.
              </p>
            </div>
          ) : null}
        </div>
        <p className="text-sm text-base-content/80">
          A call counts from the moment the generator asks the engine until the image is stored with its record.
          &ldquo;No image&rdquo; counts calls that failed (timeouts, errors, refusals for credit or rate); a prompt
          refused by the engine&apos;s content moderation is a call, not a failure. Nothing about who asked or what was
          asked is kept for these figures.
        </p>
      </section>
    </div>
  );
}
