// The engines a generation may name: the deployment's list kept on this device (refreshed once per page
// when online). A single engine means there is nothing to choose.
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect } from "react";
import { db } from "../db/db";
import { readEngines, type EngineList } from "../db/engines";
import { refreshEngines } from "./engines";

export function useEngines(): EngineList | null {
  const list = useLiveQuery(() => readEngines(db), []) ?? null;
  useEffect(() => {
    void refreshEngines(db).catch((e: unknown) =>
      console.warn("[engines] the list could not be read:", e instanceof Error ? e.message : String(e)),
    );
  }, []);
  return list;
}
