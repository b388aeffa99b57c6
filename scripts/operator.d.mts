/** A user as the auth admin API answers one (the fields this command reads). */
export interface AdminUser {
  id: string;
  email?: string;
  app_metadata?: Record<string, unknown>;
}
export interface AdminClient {
  listUsers(page: number, perPage: number): Promise<{ users: AdminUser[] }>;
  updateUser(id: string, attributes: Record<string, unknown>): Promise<AdminUser>;
}

export const OPERATOR_ROLE: "operator";
export function projectFromEnv(env?: Record<string, string | undefined>): { url: string; serviceRoleKey: string };
export function localServiceKey(secret: string): string;
export function adminClient(project: { url: string; serviceRoleKey: string }): AdminClient;
export function findUserByEmail(client: AdminClient, email: string): Promise<AdminUser | null>;
export function setOperator(client: AdminClient, email: string, on: boolean): Promise<AdminUser>;
export function listOperators(client: AdminClient): Promise<AdminUser[]>;
export function main(
  argv: string[],
  io?: { env?: Record<string, string | undefined>; out?: (line: string) => void; err?: (line: string) => void },
): Promise<number>;
