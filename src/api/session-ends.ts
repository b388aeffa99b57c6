// The hint that a session of this person has ended (decision 129): the database announces every ended
// session on the person's private Realtime topic "session:<user id>", which only they may join
// (supabase/migrations/20261126105500_announce_ended_sessions.sql). A hint only: the device asks the auth
// server (checkSession in ./auth.ts) before it concludes anything.
import { supabase } from "./client";

export type SessionEndsStatus = "SUBSCRIBED" | "CLOSED" | "CHANNEL_ERROR" | "TIMED_OUT";

/** Calls `onEnded` whenever a session of `userId` ends; `onStatus` hears every (re)join. Returns the unsubscribe. */
export function subscribeSessionEnds(
  userId: string,
  onEnded: () => void,
  onStatus: (status: SessionEndsStatus) => void,
): () => void {
  const client = supabase();
  const channel = client
    .channel(`session:${userId}`, { config: { private: true } })
    .on("broadcast", { event: "session.ended" }, () => onEnded())
    .subscribe((status) => onStatus(status as SessionEndsStatus));
  return () => void client.removeChannel(channel);
}
