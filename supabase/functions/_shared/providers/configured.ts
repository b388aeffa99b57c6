// Which image engines a deployment has configured, read from the environment alone (no adapter is
// built, no provider code is loaded), so the health function can tell the app cheaply. select.ts builds
// the adapters from the same variables, in the same order.
import type { ProviderId } from "./types.ts";

type Env = (name: string) => string | undefined;
type RemoteId = Exclude<ProviderId, "builtin">;

/** The variable that switches each remote engine on, in preference order (the first configured is the default). */
export const PROVIDER_SWITCHES: readonly (readonly [RemoteId, string])[] = [
  ["replicate", "REPLICATE_API_TOKEN"],
  ["runware", "RUNWARE_API_KEY"],
  ["openai", "OPENAI_API_KEY"],
  ["bfl", "BFL_API_KEY"],
  ["fal", "FAL_KEY"],
  ["gemini", "GEMINI_API_KEY"],
  ["a1111", "A1111_URL"],
  ["comfyui", "COMFYUI_URL"],
];

export interface ConfiguredProviders {
  /** Configured engines, remote ones in preference order, the built-in engine (always there) last. */
  available: ProviderId[];
  /** The engine that serves requests that name none. */
  default: ProviderId;
}

export function configuredProviders(env: Env): ConfiguredProviders {
  const remote = PROVIDER_SWITCHES.filter(([, name]) => env(name)?.trim()).map(([id]) => id);
  const available: ProviderId[] = [...remote, "builtin"];
  const wanted = env("DEFAULT_PROVIDER")?.trim();
  const chosen = available.find((id) => id === wanted);
  return { available, default: chosen ?? available[0] };
}
