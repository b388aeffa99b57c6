// The large view's variations (decision 155): "Vary (subtle)" and "Vary (strong)" queue a new generation
// from this one through the generator's queue (offline too: it waits for the connection), and the lineage
// strip shows the parent, its other variations and this one's own, each a button that opens it here;
// Previous and Next walk the strip in order.
import { useLiveQuery } from "dexie-react-hooks";
import { useState } from "react";
import { isVaryKind, VARIATION_LABELS, type VariationKind, type VaryKind } from "#shared/vocabulary/variations.ts";
import { db } from "../../db/db";
import type { GenerationRecord } from "../../db/schema";
import { isOnline } from "../../lib/online";
import { showToast } from "../../state/toasts";
import { useTileImage } from "../../sync/use-tile-image";
import { readLineage, stripOf, type Lineage } from "./lineage";
import { referenceOf, variationSettings, type QueueVariation } from "./vary";

type Props = {
  record: GenerationRecord;
  /** The generator's queueing, handed in by the app. */
  queue: QueueVariation;
  /** The picture shown, when its bytes are here (a subtle variation's reference is made from it). */
  image: Blob | undefined;
  /** Opens another generation of the strip in this view. */
  onOpen: (id: string) => void;
};

const KINDS: VaryKind[] = ["subtle", "strong"];

export function VariationsPanel({ record, queue, image, onOpen }: Props) {
  const [busy, setBusy] = useState(false);
  const lineage = useLiveQuery(() => readLineage(db, record), [record]);

  const vary = async (kind: VaryKind) => {
    if (busy) return;
    setBusy(true);
    try {
      const reference = kind === "subtle" ? await referenceOf(record, image) : undefined;
      if (kind === "subtle" && !reference) {
        showToast({ tone: "error", title: "Not varied", message: "This image is not on this device yet." });
        return;
      }
      const result = await queue(variationSettings(record, kind, reference));
      if (!result.ok) showToast({ tone: "error", title: "Not varied", message: result.message });
      else {
        const when = isOnline() ? "It is on its way." : "It is made when you are back online.";
        showToast({ tone: "success", title: `${VARIATION_LABELS[kind]} queued`, message: when });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label="Variations" className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {KINDS.map((kind) => (
          <button
            key={kind}
            type="button"
            className="btn btn-outline btn-sm"
            aria-disabled={busy || undefined}
            onClick={() => void vary(kind)}
          >
            {VARIATION_LABELS[kind]}
          </button>
        ))}
      </div>
      {lineage?.of === record.id && <LineageStrip record={record} lineage={lineage} onOpen={onOpen} />}
    </section>
  );
}

/** How a strip names a linked image's kind: "subtle", "strong", or a kept upscale's "Upscale 2×" (decision 158). */
function kindWord(kind: VariationKind | undefined): string {
  if (!kind) return "variation";
  return isVaryKind(kind) ? kind : VARIATION_LABELS[kind];
}

function roleOf(record: GenerationRecord, item: GenerationRecord, lineage: Lineage): string {
  if (item.id === record.id) return "This image";
  if (item.id === lineage.parent?.id) return "Parent";
  const kind = item.variation?.kind;
  if (item.variation?.of === record.id)
    return kind && !isVaryKind(kind) ? kindWord(kind) : `Variation (${kindWord(kind)})`;
  return `Sibling (${kindWord(kind)})`;
}

function LineageStrip({
  record,
  lineage,
  onOpen,
}: {
  record: GenerationRecord;
  lineage: Lineage;
  onOpen: Props["onOpen"];
}) {
  const strip = stripOf(record, lineage);
  if (strip.length < 2) return null;
  const at = strip.findIndex((r) => r.id === record.id);
  const step = (by: number) => strip[at + by] && onOpen(strip[at + by].id);
  return (
    <nav aria-label="Lineage" className="flex items-center gap-2">
      <button
        type="button"
        className="btn btn-ghost btn-xs"
        aria-disabled={at <= 0 || undefined}
        onClick={() => step(-1)}
      >
        Previous
      </button>
      <ol className="flex min-w-0 gap-2 overflow-x-auto py-1">
        {strip.map((item) => (
          <li key={item.id} className="shrink-0">
            <LineageTile
              item={item}
              label={roleOf(record, item, lineage)}
              current={item.id === record.id}
              onOpen={onOpen}
            />
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn btn-ghost btn-xs"
        aria-disabled={at >= strip.length - 1 || undefined}
        onClick={() => step(1)}
      >
        Next
      </button>
    </nav>
  );
}

function LineageTile(p: { item: GenerationRecord; label: string; current: boolean; onOpen: Props["onOpen"] }) {
  const image = useTileImage(p.item);
  return (
    <button
      type="button"
      className="flex w-16 flex-col items-center gap-1 text-center text-[11px] leading-tight"
      aria-current={p.current || undefined}
      onClick={() => !p.current && p.onOpen(p.item.id)}
    >
      <span
        className={`block size-14 overflow-hidden rounded-box bg-base-200 ${p.current ? "ring-2 ring-primary" : ""}`}
      >
        {image.src && <img src={image.src} crossOrigin="anonymous" alt="" className="size-full object-cover" />}
      </span>
      <span className={p.current ? "font-semibold" : "text-base-content/80"}>{p.label}</span>
    </button>
  );
}

/** The large view's tool (src/ui/large-view-tools.ts): the panel for the generation with this id, read live. */
export function VariationsTool(p: {
  generationId: string;
  image: Blob | undefined;
  open: (id: string) => void;
  queue: QueueVariation;
}) {
  const record = useLiveQuery(() => db.generations.get(p.generationId), [p.generationId]);
  return record ? <VariationsPanel record={record} queue={p.queue} image={p.image} onOpen={p.open} /> : null;
}
