// The engines the deployment offers, for a public page that only builds a generator link (/advanced):
// asked once online, after the page has drawn, with the backend client loaded only then (a public page
// ships no API client up front). Offline there is nothing to choose from, and the field stays hidden.
import { useEffect, useState } from "react";
import type { ConfiguredEngines } from "../api/engine-health";
import { isOnline } from "../lib/online";

export function useOfferedEngines(): ConfiguredEngines | null {
  const [engines, setEngines] = useState<ConfiguredEngines | null>(null);
  useEffect(() => {
    if (!isOnline()) return;
    let live = true;
    void import("../api/engine-health")
      .then((m) => m.fetchConfiguredEngines())
      .then((r) => {
        if (live && r.ok) setEngines(r.value);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return engines;
}
