// "A new version is ready": appears when a new service worker has installed and is waiting (the
// registration in lib/service-worker announces it). Reload hands over to it; Later hides the notice
// and the new version takes over the next time every tab is closed. The notice's code (update-notice.tsx)
// loads only then: the home page's first load stays within its script budget.
import { Suspense, lazy, useEffect, useState } from "react";
import { onUpdateReady } from "../../lib/service-worker";

const UpdateNotice = lazy(() => import("./update-notice"));

export function UpdatePrompt() {
  const [ready, setReady] = useState(false);
  useEffect(() => onUpdateReady(() => setReady(true)), []);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <UpdateNotice />
    </Suspense>
  );
}
