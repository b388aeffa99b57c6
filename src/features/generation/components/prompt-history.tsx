// Prompt history (docs/spec.md §4): past prompts, newest first; picking one fills the prompt; one can be
// removed or all cleared. Hidden while empty.
import type { PromptHistoryRecord } from "../../../db/schema";
import { Icon } from "../../../ui/icons";

type Props = {
  entries: readonly PromptHistoryRecord[];
  onPick: (prompt: string) => void;
  onRemove: (id: string) => void;
  onClear: () => void;
};

export function PromptHistory({ entries, onPick, onRemove, onClear }: Props) {
  if (entries.length === 0) return null;
  return (
    <details className="collapse-arrow collapse rounded-box border border-base-300 bg-base-100">
      <summary className="collapse-title min-h-0 py-3 text-sm font-medium">Prompt history ({entries.length})</summary>
      <div className="collapse-content flex flex-col gap-2">
        <ul aria-label="Prompt history" className="flex max-h-64 flex-col gap-1 overflow-y-auto">
          {entries.map((e) => (
            <li key={e.id} className="flex items-center gap-1">
              <button
                type="button"
                className="btn btn-ghost btn-sm h-auto min-h-8 flex-1 justify-start py-1 text-left font-normal"
                aria-label={`Use prompt: ${e.prompt}`}
                onClick={() => onPick(e.prompt)}
              >
                <span className="line-clamp-2">{e.prompt}</span>
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-xs btn-square"
                aria-label={`Remove prompt: ${e.prompt}`}
                onClick={() => onRemove(e.id)}
              >
                <Icon name="close" className="size-4" />
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="btn btn-ghost btn-xs self-end" onClick={onClear}>
          Clear history
        </button>
      </div>
    </details>
  );
}
