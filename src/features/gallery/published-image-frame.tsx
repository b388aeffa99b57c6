// A published image, large, read again through the bucket's policy (an image unpublished since the page
// loaded no longer opens): the picture, a spinner while it loads, or a line saying it is not available;
// and beside it its recipe, the link that opens the generator with it, and its actions. The gallery's
// dialog and the image's own page (/gallery/<id>) both show them.
import { Link } from "wouter";
import type { PublishedRow } from "../../api/gallery";
import { authRedirectPath } from "../../lib/auth-redirect";
import { recipeFromRow, recipeLink, recipeRows } from "../../lib/generation-recipe";
import { useSession } from "../../state/session-store";
import { DefinitionList } from "../../ui/definition-list";
import { Icon } from "../../ui/icons";
import { Spinner } from "../../ui/spinner";
import { ImageActions } from "./image-actions";
import { viewerOf } from "./share";
import { usePublishedImage } from "./use-published-image";

/** Where "Use this recipe" goes: the filled generator, or sign-in that returns to it. */
function recipeTarget(generateLink: string, signedIn: boolean): string {
  if (signedIn) return generateLink;
  const [pathname, search = ""] = generateLink.split("?");
  return authRedirectPath({ pathname, search });
}

type Props = {
  row: Pick<PublishedRow, "image_path" | "prompt" | "width" | "height">;
  /** The frame's least height and the picture's greatest, as Tailwind classes. */
  minHeight: string;
  maxHeight: string;
};

export function PublishedImageFrame({ row, minHeight, maxHeight }: Props) {
  const { image } = usePublishedImage(row.image_path, "view");
  return (
    <div className={`grid ${minHeight} place-items-center overflow-hidden rounded-box bg-base-200`}>
      {image.status === "ready" ? (
        <img
          src={image.url}
          alt={row.prompt}
          width={row.width}
          height={row.height}
          className={`${maxHeight} w-auto object-contain`}
        />
      ) : image.status === "loading" ? (
        <span role="status" aria-label="Loading image" className="inline-flex">
          <Spinner size="md" />
        </span>
      ) : (
        <p className="p-6 text-sm text-base-content/80">This image is not available right now.</p>
      )}
    </div>
  );
}

type DetailsProps = {
  row: PublishedRow;
  /** The recipe link's words ("Use this recipe", "Make one like this") and its button classes. */
  recipeLabel: string;
  recipeClassName: string;
  autoFocusRecipe?: boolean;
  onReport: () => void;
  /** Offer the image's own page among the actions. */
  pageLink?: boolean;
};

/** The column beside the image: its recipe, the generator filled with it, and its actions. */
export function PublishedImageDetails({
  row,
  recipeLabel,
  recipeClassName,
  autoFocusRecipe,
  onReport,
  pageLink,
}: DetailsProps) {
  const userId = useSession().user?.id;
  const signedIn = Boolean(userId);
  const recipe = recipeFromRow(row);
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <DefinitionList rows={recipeRows(recipe)} />
      <div>
        <Link
          to={recipeTarget(recipeLink(recipe), signedIn)}
          className={recipeClassName}
          {...(autoFocusRecipe ? { "data-autofocus": true } : {})}
        >
          <Icon name="sparkles" className="size-4" />
          {recipeLabel}
        </Link>
        {!signedIn && (
          <p className="mt-2 text-xs text-base-content/70">You'll sign in first, then the generator opens with it.</p>
        )}
      </div>
      <ImageActions
        id={row.id}
        prompt={row.prompt}
        viewer={viewerOf(row.user_id, userId)}
        onReport={onReport}
        pageLink={pageLink}
      />
    </div>
  );
}
