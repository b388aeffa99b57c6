// This device's copy of the library: how much storage the app uses (navigator.storage.estimate),
// what the offline library keeps (every thumbnail, the full images of saved items and of the newest
// within the budget set here: src/db/offline-library.ts), asking the browser to keep it (persist(),
// so it is not evicted under storage pressure), and clearing the cached copy. Clearing keeps unsent work (queued requests, pending changes): that
// is the only copy of it, and the images themselves stay in the account and download again.
import { useLiveQuery } from "dexie-react-hooks";
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { db } from "../../db/db";
import { askPersistentStorage, getOfflineBudget, offlineSummary, setOfflineBudget } from "../../db/offline-library";
import { clearUserData } from "../../db/user-data";
import { showToast } from "../../state/toasts";
import { ConfirmModal } from "../../ui/modal";

type Estimate = { usage: number; quota: number } | null;

/** "12.4 MB" from bytes (decimal units, as browsers and file managers show them). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1000) return `${Math.max(0, Math.round(bytes || 0))} B`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

function storageApi(): StorageManager | undefined {
  return typeof navigator !== "undefined" ? navigator.storage : undefined;
}

const MB = 1_000_000;

/** What the offline library keeps, and its budget (a setting of this device). */
function OfflineLibrary({ userId, onChanged }: { userId: string; onChanged: () => void }) {
  const summary = useLiveQuery(() => offlineSummary(userId), [userId]);
  const budget = useLiveQuery(() => getOfflineBudget(userId), [userId]);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const value = draft ?? (budget ? String(Math.round((budget.bytes / MB) * 10) / 10) : "");

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const megabytes = Number(value.trim());
    if (value.trim() === "" || !Number.isFinite(megabytes) || megabytes < 0) {
      setError("Enter a number of megabytes, 0 or more.");
      return;
    }
    try {
      await setOfflineBudget(userId, megabytes * MB);
      setError(null);
      setDraft(null);
      void askPersistentStorage().then(onChanged);
      showToast({
        tone: "success",
        title: "Offline budget set",
        message: `${formatBytes(megabytes * MB)} for images not saved.`,
      });
    } catch (e) {
      setError(e instanceof Error ? e.message : "The budget could not be set.");
    }
  };

  return (
    <>
      <dl className="grid gap-1 sm:grid-cols-[12rem_1fr]">
        <dt className="text-sm text-base-content/80">Kept for offline</dt>
        <dd className="font-medium" data-testid="offline-kept">
          {summary === undefined
            ? "Checking…"
            : `${summary.thumbnails.toLocaleString()} of ${summary.generations.toLocaleString()} thumbnails; ` +
              `${summary.fullImages.toLocaleString()} full images (${formatBytes(summary.bytes)}), ` +
              `${summary.savedFullImages.toLocaleString()} of ${summary.savedTotal.toLocaleString()} saved`}
        </dd>
      </dl>
      <form className="flex flex-col gap-1" noValidate onSubmit={(e) => void submit(e)}>
        <label htmlFor={inputId} className="text-sm font-medium">
          Offline budget for images not saved (MB)
        </label>
        <div className="flex flex-wrap gap-2">
          <input
            id={inputId}
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            className={`input input-sm w-36 ${error ? "input-error" : ""}`}
            value={value}
            // Not editable until the budget is read: a value typed before it arrived would be joined to it
            // ("1000" then "1.5" made "10001.5").
            disabled={budget === undefined}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            aria-invalid={error ? true : undefined}
            onChange={(e) => {
              setDraft(e.target.value);
              setError(null);
            }}
          />
          <button type="submit" className="btn btn-outline btn-sm" disabled={budget === undefined}>
            Set budget
          </button>
        </div>
        <p id={hintId} className="text-xs text-base-content/80">
          Saved images and every thumbnail are always kept. The newest images (and those you opened lately) are kept in
          full up to this size; the least recently viewed go first.
          {budget && !budget.chosen
            ? " This is the default: a tenth of the space this browser grants, up to 1 GB."
            : ""}
        </p>
        {error && (
          <p id={errorId} role="alert" className="text-sm text-error">
            {error}
          </p>
        )}
      </form>
    </>
  );
}

export function DeviceStorage({ userId }: { userId?: string }) {
  const [estimate, setEstimate] = useState<Estimate | undefined>();
  const [persisted, setPersisted] = useState<boolean | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);
  const api = storageApi();

  const refresh = useCallback(async () => {
    const [e, p] = await Promise.all([
      api?.estimate ? api.estimate().catch(() => null) : Promise.resolve(null),
      api?.persisted ? api.persisted().catch(() => null) : Promise.resolve(null),
    ]);
    setEstimate(e ? { usage: e.usage ?? 0, quota: e.quota ?? 0 } : null);
    setPersisted(p);
  }, [api]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const persist = async () => {
    const granted = api?.persist ? await api.persist().catch(() => false) : false;
    setPersisted(granted);
    showToast(
      granted
        ? { tone: "success", title: "This device will keep your library" }
        : {
            tone: "warning",
            title: "The browser did not grant persistent storage",
            message: "It may still keep your library; installing the app often helps.",
          },
    );
  };

  const clear = async () => {
    setClearing(true);
    try {
      await clearUserData(db, { includeQueuedWork: false });
      showToast({
        tone: "success",
        title: "This device's copy was cleared",
        message: "Your images download again as you open them.",
      });
      setConfirming(false);
      await refresh();
    } catch (e) {
      showToast({
        tone: "error",
        title: "Could not clear this device",
        message: e instanceof Error ? e.message : undefined,
      });
    } finally {
      setClearing(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <h2 className="card-title text-lg">This device</h2>
      <dl className="grid gap-1 sm:grid-cols-[12rem_1fr]">
        <dt className="text-sm text-base-content/80">Storage used</dt>
        <dd className="font-medium">
          {estimate === undefined
            ? "Checking…"
            : estimate === null
              ? "This browser does not report it"
              : `${formatBytes(estimate.usage)} of ${formatBytes(estimate.quota)} available`}
        </dd>
        <dt className="text-sm text-base-content/80">Persistent storage</dt>
        <dd className="font-medium">
          {persisted === null
            ? "Not supported"
            : persisted
              ? "On: the browser keeps your library"
              : "Off: the browser may clear it when space runs low"}
        </dd>
      </dl>
      {userId && <OfflineLibrary userId={userId} onChanged={() => void refresh()} />}
      <div className="flex flex-wrap gap-2">
        {persisted === false && (
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void persist()}>
            Keep my library on this device
          </button>
        )}
        <button type="button" className="btn btn-outline btn-sm" onClick={() => setConfirming(true)}>
          Clear this device's copy
        </button>
      </div>
      {confirming && (
        <ConfirmModal
          title="Clear this device's copy?"
          body="Cached images and settings are removed from this browser. Your account keeps everything, and work not yet sent stays queued."
          confirmLabel="Clear"
          busy={clearing}
          onConfirm={() => void clear()}
          onClose={() => setConfirming(false)}
        />
      )}
    </div>
  );
}
