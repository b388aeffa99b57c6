// Postgres SQLSTATE codes mapped to the HTTP statuses PostgREST answers.
import assert from "node:assert/strict";
import { statusForSqlState } from "../../../supabase/local/rest/errors.ts";

Deno.test("maps SQLSTATE codes to PostgREST's statuses", () => {
  const cases: Array<[string, boolean, number]> = [
    ["42501", true, 401],
    ["42501", false, 403],
    ["23505", false, 409],
    ["23503", false, 409],
    ["23514", false, 400],
    ["23502", false, 400],
    ["22P02", false, 400],
    ["P0001", false, 400],
    ["25006", false, 405],
    ["42883", false, 404],
    ["57014", false, 500],
    ["XX000", false, 500],
    // PostgREST's PTxyz: a function chooses the status.
    ["PT413", false, 413],
    ["PT429", true, 429],
  ];
  for (const [code, anon, status] of cases) assert.equal(statusForSqlState(code, anon), status, code);
});
