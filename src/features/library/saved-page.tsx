// /my-generations (Saved): the generations the person saved, newest first, read live from this
// device. Several can be selected, then downloaded as one zip (images and their settings) or deleted.
import { useLiveQuery } from "dexie-react-hooks";
import { useState } from "react";
import { Link } from "wouter";
import { savedGenerations } from "../../db/queries";
import { useToggleSet } from "../../lib/use-toggle-set";
import { useSession } from "../../state/session-store";
import { PageHeader } from "../../ui/page-header";
import { GenerationGrid } from "./generation-grid";
import { loadSafely } from "./load-safely";
import { OpenGeneration } from "./open-generation";
import { SelectionBar } from "./selection-bar";

export default function SavedPage() {
  const userId = useSession().user?.id;
  const loaded = useLiveQuery(() => (userId ? loadSafely(() => savedGenerations(userId)) : undefined), [userId]);
  const { chosen, setChosen, toggle } = useToggleSet();
  const [openId, setOpenId] = useState<string | null>(null);
  const items = loaded?.items ?? [];
  // Only what is still listed counts as selected (an item unsaved or deleted elsewhere drops out).
  const selected = new Set(items.filter((r) => chosen.has(r.id)).map((r) => r.id));

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader title="Saved" lead="The images you saved, kept on this device for offline viewing." />
      {loaded === undefined ? (
        <p role="status" className="py-10 text-center text-base-content/80">
          Loading your saved images…
        </p>
      ) : loaded.error !== undefined ? (
        <div role="alert" className="alert alert-error alert-soft text-base-content">
          {loaded.error}
        </div>
      ) : items.length === 0 ? (
        <div className="rounded-box border border-dashed border-base-300 p-10 text-center">
          <p className="font-medium">Nothing saved yet.</p>
          <p className="mt-1 text-sm text-base-content/80">Open an image in your history and choose Save.</p>
          <Link to="/history" className="btn btn-sm btn-primary mt-3">
            Go to History
          </Link>
        </div>
      ) : (
        <>
          <SelectionBar userId={userId} items={items} selected={selected} onChoose={setChosen} />
          <GenerationGrid items={items} label="Saved generations" onOpen={setOpenId} selection={{ selected, toggle }} />
        </>
      )}
      {openId && <OpenGeneration id={openId} userId={userId} onClose={() => setOpenId(null)} />}
    </div>
  );
}
