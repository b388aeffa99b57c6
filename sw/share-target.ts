/// <reference lib="webworker" />
// The manifest's share target (public/manifest.webmanifest): another app shares an image with the
// installed app as a multipart POST to /share-target. The worker answers it itself, online or offline:
// it keeps the image in IndexedDB (src/db/opened-image.ts) and sends the window to
// /generate?open=shared, where the generator takes it. A share with no image opens the generator as it is.
import { db } from "../src/db/db";
import { keepOpenedImage } from "../src/db/opened-image";

export const SHARE_TARGET_PATH = "/share-target";
const IMAGE_TYPES = /^image\/(png|jpeg|webp)$/;

export async function receiveShare(request: Request): Promise<Response> {
  try {
    const form = await request.formData();
    const file = form.getAll("image").find((f): f is File => f instanceof File && IMAGE_TYPES.test(f.type));
    if (!file) return Response.redirect("/generate", 303);
    await keepOpenedImage(db, file, file.name || "shared image");
    return Response.redirect("/generate?open=shared", 303);
  } catch {
    return Response.redirect("/generate", 303);
  }
}
