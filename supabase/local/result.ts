// The one Result shape of the local backend (the same shape as the functions' Result in
// supabase/functions/_shared/errors.ts): a value, or an error saying why not. Each service names its
// own error type; expected failures are values, never thrown.
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const err = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });
