// Product events (table app_events). Tracking never gets in anyone's way: with no signed-in user
// it is skipped (spec §5), and a failure is only a warning (spec §8).
import { sanitizeForLog } from "./errors";
import { supabase } from "./client";

export async function trackEvent(
  userId: string | null,
  name: string,
  metadata: Record<string, unknown>,
): Promise<void> {
  if (!userId) return;
  try {
    const { error } = await supabase().from("app_events").insert({ user_id: userId, name, metadata });
    if (error) console.warn(`[events] ${name} not recorded: ${sanitizeForLog(error)}`);
  } catch (e) {
    console.warn(`[events] ${name} not recorded: ${sanitizeForLog(e)}`);
  }
}
