// The large view of a published generation: the image, its prompt and every setting, and "Use this
// recipe", which opens the generator filled in (seed included). A visitor signs in first and then
// lands on that same filled generator. Below: its own page, its link, sharing and reporting.
import { Link } from "wouter";
import type { PublishedRow } from "../../api/gallery";
import { authRedirectPath } from "../../lib/auth-redirect";
import { recipeFromRow, recipeLink, recipeRows } from "../../lib/generation-recipe";
import { useSession } from "../../state/session-store";
import { DefinitionList } from "../../ui/definition-list";
import { Icon } from "../../ui/icons";
import { Modal } from "../../ui/modal";
import { ImageActions } from "./image-actions";
import { PublishedImageFrame } from "./published-image-frame";
import { viewerOf } from "./share";

/** Where "Use this recipe" goes: the filled generator, or sign-in that returns to it. */
export function recipeTarget(generateLink: string, signedIn: boolean): string {
  if (signedIn) return generateLink;
  const [pathname, search = ""] = generateLink.split("?");
  return authRedirectPath({ pathname, search });
}

type Props = { row: PublishedRow; onClose: () => void; onReport: () => void };

export function GalleryItemDialog({ row, onClose, onReport }: Props) {
  const userId = useSession().user?.id;
  const signedIn = Boolean(userId);
  const recipe = recipeFromRow(row);
  return (
    <Modal title="Published image" onClose={onClose} size="lg">
      <div className="grid gap-5 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <PublishedImageFrame row={row} minHeight="min-h-48" maxHeight="max-h-[60vh]" />
        <div className="flex min-w-0 flex-col gap-4">
          <DefinitionList rows={recipeRows(recipe)} />
          <div>
            <Link to={recipeTarget(recipeLink(recipe), signedIn)} className="btn btn-primary btn-sm" data-autofocus>
              <Icon name="sparkles" className="size-4" />
              Use this recipe
            </Link>
            {!signedIn && (
              <p className="mt-2 text-xs text-base-content/70">
                You'll sign in first, then the generator opens with it.
              </p>
            )}
          </div>
          <ImageActions
            id={row.id}
            prompt={row.prompt}
            viewer={viewerOf(row.user_id, userId)}
            onReport={onReport}
            pageLink
          />
        </div>
      </div>
    </Modal>
  );
}
