// Keeps an image upscaled on this device in the person's library (decision 158): one request to the
// keep-upscale function with the file and the ids, as multipart/form-data (the file travels as its bytes).
// The id is the new generation's, minted on the device: a resend answers the row the first one stored.
import { err, ok, type Result } from "../lib/result";
import { guarded, invokeWrite, writeFailure, type WriteFailure } from "./library";

/** What the outbox keeps to send: the new generation's id, its original's, the scale and the file. */
export type KeepUpscalePayload = { generationId: string; originalId: string; scale: 2 | 4; image: Blob };

const FILE_NAMES: Record<string, string> = {
  "image/webp": "upscale.webp",
  "image/png": "upscale.png",
  "image/jpeg": "upscale.jpg",
};

/**
 * Sends the file; `found` is false when the original is gone, or is not the person's (the function's 404),
 * or this id was deleted meanwhile (410): there is then nothing to keep it beside.
 */
export function keepUpscale(p: KeepUpscalePayload): Promise<Result<{ found: boolean }, WriteFailure>> {
  return guarded(async (): Promise<Result<{ found: boolean }, WriteFailure>> => {
    const form = new FormData();
    form.append("id", p.generationId);
    form.append("original_id", p.originalId);
    form.append("scale", String(p.scale));
    form.append("image", p.image, FILE_NAMES[p.image.type] ?? "upscale");
    const r = await invokeWrite("keep-upscale", form, ["invalid_input"]);
    // The function's own 404 or 410 (invalid_input) is the original or this image gone; the gateway's is not.
    const gone = !r.ok && (r.error.status === 404 || r.error.status === 410) && r.error.code === "invalid_input";
    if (!r.ok) return gone ? ok({ found: false }) : err({ kind: r.error.kind, error: r.error.error });
    const answer = r.value as { generation?: { id?: unknown } } | null;
    if (answer?.generation?.id !== p.generationId) {
      return err(writeFailure(502, { message: "server error: unexpected answer" }));
    }
    return ok({ found: true });
  });
}
