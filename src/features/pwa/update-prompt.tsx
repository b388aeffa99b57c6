// "A new version is ready": appears when a new service worker has installed and is waiting (the
// registration in lib/service-worker announces it). Reload hands over to it; Later hides the notice
// and the new version takes over the next time every tab is closed.
import { useEffect, useState } from "react";
import { applyUpdate, onUpdateReady } from "../../lib/service-worker";

export function UpdatePrompt() {
  const [ready, setReady] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => onUpdateReady(() => setReady(true)), []);
  if (!ready || dismissed) return null;
  return (
    <div role="status" className="fixed inset-x-0 bottom-4 z-[65] flex justify-center px-4">
      <div className="alert alert-info alert-soft border-current/20 text-base-content max-w-md shadow-lg">
        <p className="font-medium">A new version of PromptCanvas is ready.</p>
        <div className="flex gap-1">
          <button type="button" className="btn btn-sm btn-primary" onClick={applyUpdate}>
            Reload
          </button>
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => setDismissed(true)}>
            Later
          </button>
        </div>
      </div>
    </div>
  );
}
