// Which image engine draws (the engine per request): a select shown only where the deployment offers
// more than one (the list comes from the caller: src/sync/use-engines.ts). The default is the
// deployment's; an engine a link asked for that is not offered here is said so, and the request then
// goes to the default. Used by the generator and by /advanced.
import { useId } from "react";
import { providerName } from "../lib/model-names";

export type OfferedEngines = { available: string[]; default: string };

export function EngineField(props: {
  value: string;
  onChange: (v: string) => void;
  engines: OfferedEngines | null;
  disabled?: boolean;
  /** The label's look: the generator's small field label (default) or hidden (a page with its own title). */
  hideLabel?: boolean;
}) {
  const id = useId();
  const { engines, value } = props;
  if (!engines || engines.available.length < 2) return null;
  const offered = !value || engines.available.includes(value);
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className={props.hideLabel ? "sr-only" : "text-sm font-medium"}>
        Engine
      </label>
      <select
        id={id}
        className="select w-full max-w-sm"
        value={offered ? value : ""}
        disabled={props.disabled}
        aria-describedby={`${id}-help`}
        onChange={(e) => props.onChange(e.target.value)}
      >
        <option value="">Default ({providerName(engines.default)})</option>
        {engines.available.map((p) => (
          <option key={p} value={p}>
            {providerName(p)}
          </option>
        ))}
      </select>
      <p id={`${id}-help`} className="text-xs text-base-content/70">
        {offered
          ? "Each engine maps quality to its own model. The same engine, settings and seed redraw the same picture where the engine allows it."
          : "The engine this link asked for is not offered here; the default draws instead."}
      </p>
    </div>
  );
}
