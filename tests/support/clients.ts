// supabase-js clients for tests, set up the way Node 20 needs (ws transport for realtime).
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import type { Backend } from "./backend.ts";

export function anonClient(b: Backend): SupabaseClient {
  return createClient(b.url, b.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
}

export function serviceClient(b: Backend): SupabaseClient {
  return createClient(b.url, b.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
}

let n = 0;
export function uniqueEmail(tag = "user"): string {
  return `${tag}-${Date.now().toString(36)}-${n++}@example.test`;
}

/** A user `newUser` signed up: their signed-in client, id, email and password. */
export interface NewUser {
  client: SupabaseClient;
  id: string;
  email: string;
  password: string;
}

/** A signed-in client for a brand-new user. */
export async function newUser(b: Backend, tag = "user"): Promise<NewUser> {
  const client = anonClient(b);
  const email = uniqueEmail(tag);
  const password = "correct-horse-42";
  const { data, error } = await client.auth.signUp({ email, password });
  if (error || !data.user) throw new Error(`sign-up failed: ${error?.message}`);
  return { client, id: data.user.id, email, password };
}

/**
 * Publishes `id` as the app does: through publish-generation, whose checks (prompt, image, suspension) decide;
 * only the server publishes (decision 139). Throws with the function's answer when it refuses.
 */
export async function publish(user: NewUser, id: string): Promise<void> {
  const { error } = await user.client.functions.invoke("publish-generation", { body: { generation_id: id } });
  if (error) throw error;
}
