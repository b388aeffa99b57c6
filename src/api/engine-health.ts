// What /status reads: which image engines this deployment has configured (the health function lists
// their ids, never a key or a server's address) and each engine's figures over the last 24 hours
// (public.engine_health(): calls, failures, p50/p95 time to image, from the generate function's own
// notes of every engine call; supabase/migrations/20261124000600_engine_health.sql).
import { err, ok, type Result } from "../lib/result";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";

export type EngineFigures = {
  provider: string;
  attempts: number;
  failures: number;
  p50Ms: number | null;
  p95Ms: number | null;
};

export type ConfiguredEngines = { available: string[]; default: string };

type HealthRow = { provider: string; attempts: number; failures: number; p50_ms: number | null; p95_ms: number | null };

export async function fetchEngineHealth(): Promise<Result<EngineFigures[], AppError>> {
  try {
    const { data, error } = await supabase().rpc("engine_health");
    if (error) return err(toAppError(error));
    return ok(
      ((data ?? []) as HealthRow[]).map((r) => ({
        provider: r.provider,
        attempts: Number(r.attempts),
        failures: Number(r.failures),
        p50Ms: r.p50_ms === null ? null : Number(r.p50_ms),
        p95Ms: r.p95_ms === null ? null : Number(r.p95_ms),
      })),
    );
  } catch (e) {
    return err(toAppError(e));
  }
}

export async function fetchConfiguredEngines(): Promise<Result<ConfiguredEngines, AppError>> {
  try {
    const { data, error } = await supabase().functions.invoke("health", { method: "GET" });
    if (error) return err(toAppError(error));
    const providers = (data as { providers?: Partial<ConfiguredEngines> } | null)?.providers;
    if (!providers || !Array.isArray(providers.available)) return err(toAppError("the health answer lists no engines"));
    return ok({
      available: providers.available.filter((p): p is string => typeof p === "string"),
      default: typeof providers.default === "string" ? providers.default : "builtin",
    });
  } catch (e) {
    return err(toAppError(e));
  }
}
