// Realtime channels for backend tests, through the real supabase-js client: joining a channel (settled
// once the server answers the join), what it hears, and waiting for a message to arrive.
import type { RealtimeChannel, SupabaseClient } from "@supabase/supabase-js";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `find` until it gives a value; after `timeoutMs` fails naming `what` was awaited. */
export async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Subscribes `channel`: resolves once joined, rejects with the server's reason when refused or timed out. */
export function subscribed(channel: RealtimeChannel): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === "SUBSCRIBED") resolve();
      else if (status === "CHANNEL_ERROR" || status === "TIMED_OUT") reject(err ?? new Error(status));
    });
  });
}

/** A broadcast as a member heard it; `meta` only where the server sent one (a message from the database). */
export type Heard = { event: string; payload: Record<string, unknown>; meta?: { id?: string } };

/**
 * Joins channel `name` with `config`, recording every broadcast it hears; `withPresence` also listens
 * to presence (which is what makes supabase-js join with presence enabled).
 */
export async function enter(
  client: SupabaseClient,
  name: string,
  config: Record<string, unknown> = {},
  withPresence = false,
): Promise<{ channel: RealtimeChannel; heard: Heard[] }> {
  const heard: Heard[] = [];
  const channel = client
    .channel(name, { config })
    .on("broadcast", { event: "*" }, (m: Heard) =>
      heard.push({ event: m.event, payload: m.payload, ...(m.meta ? { meta: m.meta } : {}) }),
    );
  if (withPresence) channel.on("presence", { event: "sync" }, () => {});
  await subscribed(channel);
  return { channel, heard };
}

/** Joins channel `name` with one postgres_changes `binding`, recording every change it is sent. */
export async function listenChanges<C>(
  client: SupabaseClient,
  name: string,
  binding: Record<string, unknown>,
): Promise<{ channel: RealtimeChannel; changes: C[] }> {
  const changes: C[] = [];
  const channel = client.channel(name).on("postgres_changes" as never, binding as never, (c: C) => changes.push(c));
  await subscribed(channel);
  return { channel, changes };
}
