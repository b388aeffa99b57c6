// The one Result shape of the local backend: the shared vocabulary's, the same the edge functions
// (supabase/functions/_shared/errors.ts) and the app use. Each service names its own error type;
// expected failures are values, never thrown.
export { err, ok, type Result } from "../functions/_shared/vocabulary/result.ts";
