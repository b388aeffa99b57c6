// /gallery: the public gallery. Its grid of published images ships later; the search (?q=) the top
// bar sends here is already read and shown.
import { useSearch } from "wouter";
import { ComingNext } from "../../ui/coming-next";

export default function GalleryPage() {
  const q = new URLSearchParams(useSearch()).get("q")?.trim() ?? "";
  return (
    <div className="flex flex-col gap-6">
      {q && (
        <p role="status" className="mx-auto w-full max-w-5xl rounded-box bg-base-200 px-4 py-3">
          Results for <q className="font-semibold">{q}</q> will appear here.
        </p>
      )}
      <ComingNext
        title="Gallery"
        summary="Images people chose to publish, searchable by prompt."
        links={[{ label: "Generate", to: "/generate" }]}
      />
    </div>
  );
}
