// The request headers PostgREST reads besides the query string: Prefer (return, count, resolution,
// missing, handling, max-affected) and Accept (array, single object, nulls stripped). The
// Accept-Profile / Content-Profile schema switch is schemas.ts's.
import { err, ok, restError, type Result } from "./errors.ts";

export interface Preferences {
  return: "minimal" | "representation" | "headers-only" | null;
  count: "exact" | "planned" | "estimated" | null;
  resolution: "merge-duplicates" | "ignore-duplicates" | null;
  missing: "default" | "null" | null;
  handling: "strict" | "lenient" | null;
  maxAffected: number | null;
  /** The preferences honoured, for the Preference-Applied header. */
  applied: string[];
}

const CHOICES: Record<string, string[]> = {
  return: ["minimal", "representation", "headers-only"],
  count: ["exact", "planned", "estimated"],
  resolution: ["merge-duplicates", "ignore-duplicates"],
  missing: ["default", "null"],
  handling: ["strict", "lenient"],
  // Accepted and ignored, as PostgREST does unless its configuration allows overriding transactions.
  tx: ["commit", "rollback"],
  timezone: [],
  params: ["single-object"],
};

export function parsePrefer(header: string | null): Result<Preferences> {
  const prefs: Preferences = {
    return: null,
    count: null,
    resolution: null,
    missing: null,
    handling: null,
    maxAffected: null,
    applied: [],
  };
  const invalid: string[] = [];
  for (const raw of (header ?? "").split(",")) {
    const item = raw.trim();
    if (!item) continue;
    const [key, value = ""] = item.split("=", 2).map((s) => s.trim());
    if (key === "max-affected" && /^\d+$/.test(value)) {
      prefs.maxAffected = Number(value);
      continue;
    }
    const choices = CHOICES[key];
    if (!choices || (choices.length && !choices.includes(value))) {
      invalid.push(item);
      continue;
    }
    if (key in prefs && key !== "applied" && key !== "maxAffected") {
      (prefs as unknown as Record<string, string>)[key] = value;
    }
  }
  if (prefs.handling === "strict" && invalid.length) {
    return err(
      restError(
        400,
        "PGRST122",
        "Invalid preferences given with handling=strict",
        `Invalid preferences: ${invalid.join(", ")}`,
      ),
    );
  }
  return ok(prefs);
}

export interface MediaType {
  /** "array": a JSON array of rows; "object": exactly one row as a bare object; "csv": rows as CSV. */
  kind: "array" | "object" | "csv";
  stripNulls: boolean;
  contentType: string;
}

const ARRAY: MediaType = { kind: "array", stripNulls: false, contentType: "application/json; charset=utf-8" };

/** Picks the first acceptable media type, honouring q-values; 406 PGRST107 when none is offered. */
export function negotiate(accept: string | null): Result<MediaType> {
  if (!accept || !accept.trim()) return ok(ARRAY);
  const ranges = accept
    .split(",")
    .map((r, i) => {
      const [type, ...params] = r.split(";").map((s) => s.trim());
      const map = new Map(params.map((p) => p.split("=", 2).map((s) => s.trim().toLowerCase()) as [string, string]));
      const qv = Number(map.get("q") ?? "1");
      return { type: type.toLowerCase(), map, q: Number.isFinite(qv) ? qv : 0, i };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranges) {
    const stripNulls = r.map.get("nulls") === "stripped";
    if (r.type === "*/*" || r.type === "application/*" || r.type === "application/json") return ok(ARRAY);
    if (r.type === "application/vnd.pgrst.array+json" || r.type === "application/vnd.pgrst.array") {
      return ok({ kind: "array", stripNulls, contentType: "application/vnd.pgrst.array+json; charset=utf-8" });
    }
    if (r.type === "application/vnd.pgrst.object+json" || r.type === "application/vnd.pgrst.object") {
      return ok({ kind: "object", stripNulls, contentType: "application/vnd.pgrst.object+json; charset=utf-8" });
    }
    if (r.type === "text/csv") return ok({ kind: "csv", stripNulls: false, contentType: "text/csv; charset=utf-8" });
  }
  return err(restError(406, "PGRST107", `None of these media types are available: ${accept}`));
}

/** Request bodies are JSON; a missing Content-Type is read as JSON too. */
export function isJsonBody(contentType: string | null): boolean {
  if (!contentType) return true;
  const type = contentType.split(";")[0].trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}
