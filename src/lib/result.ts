// Errors as values: every call that can fail for an expected reason returns one of these. The shape is
// the shared vocabulary's, the same the edge functions and the local backend use.
export { err, ok, type Result } from "#shared/vocabulary/result.ts";
