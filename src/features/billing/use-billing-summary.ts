// The person's billing summary for /billing: the last one kept on this device (Dexie's `meta`, read live,
// so a change heard by the plan lane shows at once) and, while online, a fresh read from the billing
// function, kept there in turn. Offline, or when the read fails, the kept one shows, labelled as last known.
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import { fetchBillingSummary, type BillingSummary } from "../../api/billing";
import { getBillingSummary, keepBillingSummary, type KeptSummary } from "../../db/billing-summary";
import { useOnline } from "../../lib/use-online";

export type BillingSummaryView = {
  kept: KeptSummary<BillingSummary> | null | undefined;
  /** A fresh read is on its way. */
  loading: boolean;
  /** The last read failed: its message (the kept summary, if any, is the last known). */
  failure: string | null;
  /** The summary shown is not from a read of this visit (offline, or the read failed). */
  lastKnown: boolean;
};

export function useBillingSummary(userId: string | undefined): BillingSummaryView {
  const online = useOnline();
  const kept = useLiveQuery(
    () => (userId ? getBillingSummary<BillingSummary>(userId) : Promise.resolve(null)),
    [userId],
  );
  const [read, setRead] = useState<{ loading: boolean; failure: string | null; fresh: boolean }>({
    loading: false,
    failure: null,
    fresh: false,
  });
  useEffect(() => {
    if (!userId || !online) return;
    let live = true;
    setRead((r) => ({ ...r, loading: true }));
    void fetchBillingSummary().then(async (result) => {
      if (result.ok) await keepBillingSummary(userId, result.value);
      if (!live) return;
      setRead(
        result.ok
          ? { loading: false, failure: null, fresh: true }
          : { loading: false, failure: result.error.message, fresh: false },
      );
    });
    return () => {
      live = false;
    };
  }, [userId, online]);
  return { kept, loading: read.loading, failure: read.failure, lastKnown: !online || !read.fresh };
}
