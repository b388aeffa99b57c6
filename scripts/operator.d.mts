import type { SupabaseClient, User } from "@supabase/supabase-js";

export const OPERATOR_ROLE: "operator";
export function projectFromEnv(env?: Record<string, string | undefined>): { url: string; serviceRoleKey: string };
export function localServiceKey(secret: string, nowSec?: number): string;
export function adminClient(project: { url: string; serviceRoleKey: string }): SupabaseClient;
export function findUserByEmail(client: SupabaseClient, email: string): Promise<User | null>;
export function setOperator(client: SupabaseClient, email: string, on: boolean): Promise<User>;
export function listOperators(client: SupabaseClient): Promise<User[]>;
export function main(
  argv: string[],
  io?: { env?: Record<string, string | undefined>; out?: (line: string) => void; err?: (line: string) => void },
): Promise<number>;
