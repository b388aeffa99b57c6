// GoTrue's admin API, as far as the product's server code uses it: DELETE /admin/users/{id}, which the
// delete-account function calls through supabase-js `auth.admin.deleteUser(id)`. Only a token whose
// role is service_role (the key only servers hold) is an admin, as GoTrue's JWT admin roles decide.
// Deleting the auth.users row cascades to the person's sessions, refresh tokens and e-mail links and,
// through the migrations' foreign keys, to every public table that references auth.users.
import { verifyJwt } from "../jwt.ts";
import { bearer } from "../http.ts";
import { answer, type AuthCtx } from "./context.ts";
import { readJsonObject, refuse, succeed } from "./responses.ts";
import { UUID } from "./users.ts";

const ADMIN_ROLES = new Set(["service_role", "supabase_admin"]);

/** Answers for requests that are not an admin's, with GoTrue's statuses and codes. */
async function requireAdmin(actx: AuthCtx, req: Request): Promise<Response | null> {
  const token = bearer(req);
  if (!token) return answer(refuse(401, "no_authorization", "This endpoint requires a valid Bearer token"));
  const verified = await verifyJwt(token, actx.config.jwtSecret);
  if (!verified.ok) {
    const why = verified.error === "expired" ? "token has invalid claims: token is expired" : verified.error;
    return answer(refuse(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${why}`));
  }
  const role = verified.value.role;
  if (typeof role !== "string" || !ADMIN_ROLES.has(role)) {
    return answer(refuse(403, "not_admin", "User not allowed"));
  }
  return null;
}

/**
 * DELETE /admin/users/{id} with `{ should_soft_delete }`. A hard delete removes the user row and what
 * cascades from it; the local backend keeps no soft-deleted accounts, so a soft delete is refused
 * rather than silently made hard. An unknown id is 404 user_not_found, as on GoTrue.
 */
export async function deleteUser(actx: AuthCtx, req: Request, id: string): Promise<Response> {
  const denied = await requireAdmin(actx, req);
  if (denied) return denied;
  if (!UUID.test(id)) return answer(refuse(400, "validation_failed", "user_id must be an UUID"));
  const body = await readJsonObject(req, actx.config.maxBodyBytes);
  if (!body.ok) return answer(body);
  if (body.value.should_soft_delete === true) {
    return answer(refuse(422, "validation_failed", "Soft deletion of users is not supported by the local backend"));
  }
  const removed = await actx.db.transaction(async (sql) => {
    const { rows } = await sql.query<{ email: string | null }>(`delete from auth.users where id = $1 returning email`, [
      id,
    ]);
    // The address's failed sign-in count is the person's data too; it has no foreign key to cascade.
    if (rows[0]?.email) await sql.query(`delete from local.sign_in_failures where email = $1`, [rows[0].email]);
    return rows.length > 0;
  });
  if (!removed) return answer(refuse(404, "user_not_found", "User not found"));
  actx.log("user deleted by an admin", { user: id });
  return answer(succeed({}));
}
