// Slows down password guessing per e-mail address (known or not, so answers do not reveal accounts).
// Each attempt is counted before the password is checked, in one statement, so parallel guesses cannot
// slip past the limit; a successful sign-in clears the count. After FREE_FAILURES failures within
// WINDOW the address is locked for a time that doubles with each further failure.
import type { Sql } from "../db.ts";

const FREE_FAILURES = 5;
const WINDOW_MIN = 15;
const FIRST_LOCK_SEC = 30;
const MAX_LOCK_SEC = 15 * 60;

// Seconds an address with `f` failures stays locked after its last failure.
const LOCK_SEC = (f: string) =>
  `case when ${f} >= ${FREE_FAILURES}
     then least(${MAX_LOCK_SEC}, ${FIRST_LOCK_SEC} * power(2, least(${f} - ${FREE_FAILURES}, 10)))
     else 0 end`;

export type Attempt = { allowed: true } | { allowed: false; retryAfterSec: number };

/** Counts an attempt for `email`, unless the address is locked; then says for how long. */
export async function beginAttempt(sql: Sql, email: string): Promise<Attempt> {
  const counted = await sql.query(
    `insert into local.sign_in_failures as f (email, failures, last_failure_at) values ($1, 1, now())
     on conflict (email) do update set
       failures = case when f.last_failure_at < now() - interval '${WINDOW_MIN} minutes' then 1 else f.failures + 1 end,
       last_failure_at = now()
     where f.last_failure_at < now() - interval '${WINDOW_MIN} minutes'
        or f.last_failure_at + make_interval(secs => ${LOCK_SEC("f.failures")}) <= now()
     returning failures`,
    [email],
  );
  if (counted.rows.length > 0) return { allowed: true };
  const { rows } = await sql.query<{ wait: number }>(
    `select ceil(extract(epoch from (last_failure_at + make_interval(secs => ${LOCK_SEC(
      "failures",
    )}) - now())))::int as wait
       from local.sign_in_failures where email = $1`,
    [email],
  );
  return { allowed: false, retryAfterSec: Math.max(1, Number(rows[0]?.wait ?? 1)) };
}

/** Forgets the failures of `email` after it signed in, and prunes addresses idle beyond the window. */
export async function clearAttempts(sql: Sql, email: string): Promise<void> {
  await sql.query(
    `delete from local.sign_in_failures where email = $1 or last_failure_at < now() - interval '${WINDOW_MIN} minutes'`,
    [email],
  );
}
