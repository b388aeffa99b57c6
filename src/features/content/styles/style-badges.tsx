import type { StyleEntry } from "../../../lib/style-catalog";
import { PageIcon } from "../../../ui/page-icons";

/** The NEW and popular (fire) badges of docs/spec.md §2's style cards. */
export function StyleBadges({ style }: { style: StyleEntry }) {
  if (!style.isNew && !style.isPopular) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {style.isNew && <span className="badge badge-secondary badge-sm font-semibold">NEW</span>}
      {style.isPopular && (
        <span className="badge badge-warning badge-soft badge-sm gap-0.5 text-base-content">
          <PageIcon name="flame" className="size-3" />
          Popular
        </span>
      )}
    </span>
  );
}
