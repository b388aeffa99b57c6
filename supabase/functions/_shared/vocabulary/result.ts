// Errors as values: the one Result shape of the app (src/lib/result.ts), the edge functions
// (../errors.ts, with AppError), the image decoder (../image/result.ts) and the local backend
// (supabase/local/result.ts). A call that can fail for an expected reason returns one; each side names
// its own error type.
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const err = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });
