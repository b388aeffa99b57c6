// The address of one published image's page (/gallery/<id>) and the two ways to pass it on: copy it,
// or hand it to the device's share sheet (the Web Share API, where the browser has one).
import { showToast } from "../../state/toasts";

/** Who is looking at a published image: a visitor may sign in to report it, its owner does not report it. */
export type Viewer = "visitor" | "owner" | "other";

export function viewerOf(ownerId: string, userId: string | undefined): Viewer {
  if (!userId) return "visitor";
  return userId === ownerId ? "owner" : "other";
}

export function galleryImagePath(id: string): string {
  return `/gallery/${encodeURIComponent(id)}`;
}

/** The page's full address on this site. */
export function galleryImageUrl(id: string, origin: string = window.location.origin): string {
  return `${origin.replace(/\/+$/, "")}${galleryImagePath(id)}`;
}

export async function copyLink(url: string, clipboard: Pick<Clipboard, "writeText"> | undefined = navigator.clipboard) {
  try {
    if (!clipboard) throw new Error("no clipboard");
    await clipboard.writeText(url);
    showToast({ tone: "success", title: "Link copied" });
  } catch {
    showToast({ tone: "error", title: "Copy failed", message: "This browser did not allow copying." });
  }
}

type ShareNavigator = { share?: (data: ShareData) => Promise<void> };

/** Whether this browser has a share sheet (the button is offered only then). */
export function canShare(nav: ShareNavigator = navigator): boolean {
  return typeof nav.share === "function";
}

/** Opens the share sheet; closing it without sharing is not an error. */
export async function shareLink(data: { url: string; title: string; text: string }, nav: ShareNavigator = navigator) {
  if (!nav.share) return;
  try {
    await nav.share(data);
  } catch (e) {
    if (e instanceof DOMException && e.name === "AbortError") return;
    showToast({ tone: "error", title: "Share failed", message: "This browser could not share the link." });
  }
}
