/// <reference lib="webworker" />
// The manifest's share target (public/manifest.webmanifest): another app shares an image with the
// installed app as a multipart POST to /share-target. The worker answers it itself, online or offline:
// it keeps the image in IndexedDB (src/db/opened-image.ts) and sends the window to
// /generate?open=shared, where the generator takes it. A share with no image opens the generator as it is,
// and so does a form posted from another site, whose image is never read or kept (decision 128).
import { db } from "../src/db/db";
import { keepOpenedImage } from "../src/db/opened-image";

export const SHARE_TARGET_PATH = "/share-target";
const IMAGE_TYPES = /^image\/(png|jpeg|webp)$/;

/** Who started the POST: its Origin header, and the page that submitted it, if any (FetchEvent.clientId). */
export type ShareSender = { clientId: string; findClient: (id: string) => Promise<{ url: string } | undefined> };

/**
 * Whether a POST to the share target came from the device (its share sheet) or this app's own pages,
 * and not from a form on another site. A share is a navigation the browser starts itself: no page
 * submitted it (an empty clientId) and its Origin is absent or "null". A page's form carries its
 * origin (another site's is refused) and its client id; a sandboxed page's form says Origin "null",
 * and is told apart by its client, which a worker can look up only when it is one of this origin's.
 * (Chromium, the one engine with share targets, names the submitting page of a navigation.)
 */
export async function isOwnShare(request: Request, sender: ShareSender, ownOrigin: string): Promise<boolean> {
  const origin = request.headers.get("Origin");
  if (origin !== null && origin !== "null" && origin !== ownOrigin) return false;
  if (sender.clientId === "") return true;
  const client = await sender.findClient(sender.clientId);
  return client !== undefined && new URL(client.url).origin === ownOrigin;
}

export async function receiveShare(request: Request, sender: ShareSender, ownOrigin: string): Promise<Response> {
  const to = (path: string) => Response.redirect(new URL(path, ownOrigin).href, 303);
  try {
    if (!(await isOwnShare(request, sender, ownOrigin))) return to("/generate");
    const form = await request.formData();
    const file = form.getAll("image").find((f): f is File => f instanceof File && IMAGE_TYPES.test(f.type));
    if (!file) return to("/generate");
    await keepOpenedImage(db, file, file.name || "shared image");
    return to("/generate?open=shared");
  } catch {
    return to("/generate");
  }
}
