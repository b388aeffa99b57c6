// Whether the person reading is an operator: the role is in their token's app_metadata, which only the
// server sets (npm run operator -- grant EMAIL). Signed out, or signed in without the role, the answer is
// no and the page draws the not-found page; the database refuses every operator call to them anyway.
// A session stored on this device is checked with the server first (the session actor), so a token
// from another time does not open the page.
import { useEffect, useState } from "react";
import { ensureSessionRuntime, useSession } from "../../state/session-store";

export type OperatorAnswer = "checking" | "yes" | "no";

export function useOperator(): OperatorAnswer {
  const session = useSession();
  const [failed, setFailed] = useState(false);
  const [answer, setAnswer] = useState<{ userId: string; operator: boolean } | null>(null);
  const userId = session.verified && session.status === "signed-in" ? session.user?.id : undefined;

  useEffect(() => {
    ensureSessionRuntime().catch(() => setFailed(true));
  }, []);

  useEffect(() => {
    if (!userId) return;
    let live = true;
    void import("../../api/moderation")
      .then((m) => m.sessionIsOperator())
      .catch(() => false)
      .then((operator) => {
        if (live) setAnswer({ userId, operator });
      });
    return () => {
      live = false;
    };
  }, [userId]);

  // No session on this device (or none after checking): nobody to be an operator.
  if (session.status === "signed-out" || failed) return "no";
  if (!userId) return "checking";
  return answer?.userId === userId ? (answer.operator ? "yes" : "no") : "checking";
}
