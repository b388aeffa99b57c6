// Times in storage answers as storage-api sends them: its database driver turns a timestamptz into a
// JavaScript Date, which JSON writes as UTC with milliseconds ("2021-02-17T04:43:32.770Z"), not as
// Postgres's own text ("2021-02-17 04:43:32.77+00").

/** A SQL expression for `column` (a timestamptz) as that JSON text; null stays null. */
export const iso = (column: string): string => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
