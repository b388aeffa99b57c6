// The notice itself (update-prompt.tsx decides when): loaded only once a new version waits, so its markup
// stays out of the first page load.
import { useState } from "react";
import { applyUpdate } from "../../lib/service-worker";

export default function UpdateNotice() {
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;
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
