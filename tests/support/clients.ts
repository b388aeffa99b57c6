// supabase-js clients for tests, set up the way Node 20 needs (ws transport for realtime).
import { createClient, type Session, type SupabaseClient, type User } from "@supabase/supabase-js";
import WebSocket from "ws";
import type { Backend } from "./backend.ts";
import { newGeneration, type NewGeneration } from "./records.ts";

/** The password every test account is made with. */
export const PASSWORD = "correct-horse-42";

/** A client of `url` with `key`, sending `headers` with every request; sessions kept in memory only. */
export function clientWith(url: string, key: string, headers: Record<string, string> = {}): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
    global: { headers },
  });
}

/** The headers of a raw request that sends `key` (the anon or service role key) as its API key and bearer token. */
export const keyHeaders = (key: string): Record<string, string> => ({ apikey: key, Authorization: `Bearer ${key}` });

export function anonClient(b: Backend): SupabaseClient {
  return clientWith(b.url, b.anonKey);
}

export function serviceClient(b: Backend): SupabaseClient {
  return clientWith(b.url, b.serviceRoleKey);
}

let n = 0;
export function uniqueEmail(tag = "user"): string {
  return `${tag}-${Date.now().toString(36)}-${n++}@example.test`;
}

/** A user `newUser` signed up: their signed-in client, id, email, password, session and user. */
export interface NewUser {
  client: SupabaseClient;
  id: string;
  email: string;
  password: string;
  session: Session;
  user: User;
}

/**
 * A brand-new user signed up (with `data` as their metadata, if given) and signed in; throws unless the
 * sign-up gave a session.
 */
export async function newUser(b: Backend, tag = "user", data?: Record<string, unknown>): Promise<NewUser> {
  const client = anonClient(b);
  const email = uniqueEmail(tag);
  const { data: out, error } = await client.auth.signUp({ email, password: PASSWORD, options: { data } });
  if (error || !out.user || !out.session) throw new Error(`sign-up failed: ${error?.message}`);
  return { client, id: out.user.id, email, password: PASSWORD, session: out.session, user: out.user };
}

/** How many rows of `table` belong to `userId`, as `client` may see them (head request, exact count). */
export async function countRows(client: SupabaseClient, table: string, userId: string): Promise<number | null> {
  const { count, error } = await client.from(table).select("*", { count: "exact", head: true }).eq("user_id", userId);
  if (error) throw error;
  return count;
}

/**
 * Publishes `id` as the app does: through publish-generation, whose checks (prompt, image, suspension) decide;
 * only the server publishes (decision 139). Throws with the function's answer when it refuses.
 */
export async function publish(user: NewUser, id: string): Promise<void> {
  const { error } = await user.client.functions.invoke("publish-generation", { body: { generation_id: id } });
  if (error) throw error;
}

/**
 * Stores a generation of `userId`'s as generate-image does, with the service role (no client may insert
 * one): `newGeneration`'s row, its image in the owner's folder, with `over` set; answers its id and throws
 * when the insert is refused.
 */
export async function storeGeneration(
  server: SupabaseClient,
  userId: string,
  over: Partial<NewGeneration> = {},
): Promise<string> {
  const row = { ...newGeneration(over.id ?? crypto.randomUUID(), userId), ...over };
  const { error } = await server.from("generations").insert(row);
  if (error) throw new Error(`storing generation ${row.id} failed: ${error.message}`);
  return row.id;
}
