// What can be done with one published image besides making one like it, in its large view and on its
// page: open its page, copy its link, share it through the device's share sheet (where the browser has
// one), and report it, or sign in first to report it.
import { Link } from "wouter";
import { authRedirectPath } from "../../lib/auth-redirect";
import { Icon } from "../../ui/icons";
import { PageIcon } from "../../ui/page-icons";
import { canShare, copyLink, galleryImagePath, galleryImageUrl, shareLink, type Viewer } from "./share";

type Props = {
  id: string;
  prompt: string;
  /** Someone else reports it; a visitor signs in first; its owner is offered no report. */
  viewer: Viewer;
  onReport: () => void;
  /** The large view links to the image's page; the page itself does not. */
  pageLink?: boolean;
};

export function ImageActions({ id, prompt, viewer, onReport, pageLink = false }: Props) {
  const url = galleryImageUrl(id);
  return (
    <div className="flex flex-wrap gap-2">
      {pageLink && (
        <Link to={galleryImagePath(id)} className="btn btn-outline btn-sm">
          <Icon name="image" className="size-4" />
          Open its page
        </Link>
      )}
      <button type="button" className="btn btn-outline btn-sm" onClick={() => void copyLink(url)}>
        <PageIcon name="copy" className="size-4" />
        Copy link
      </button>
      {canShare() && (
        <button
          type="button"
          className="btn btn-outline btn-sm"
          onClick={() => void shareLink({ url, title: "An image on PromptCanvas", text: prompt })}
        >
          <Icon name="arrowUp" className="size-4" />
          Share
        </button>
      )}
      {viewer === "other" && (
        <button type="button" className="btn btn-ghost btn-sm" onClick={onReport}>
          <Icon name="alert" className="size-4" />
          Report
        </button>
      )}
      {viewer === "visitor" && (
        <Link to={authRedirectPath({ pathname: galleryImagePath(id) })} className="btn btn-ghost btn-sm">
          <PageIcon name="lock" className="size-4" />
          Sign in to report
        </Link>
      )}
    </div>
  );
}
