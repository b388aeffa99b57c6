// Makes grid thumbnails (src/lib/thumbnail.ts) off the page's main thread, for the background fill
// and History's tiles: decoding a 1024 pixel image, scaling it and encoding the JPEG take tens of
// milliseconds a time, which a person scrolling History would otherwise feel. Same code, same output.
import { makeThumbnailHere } from "./thumbnail";

export type ThumbnailRequest = { id: number; image: Blob };
export type ThumbnailAnswer = { id: number; url: string | undefined };

addEventListener("message", (event: MessageEvent<ThumbnailRequest>) => {
  const { id, image } = event.data;
  void makeThumbnailHere(image).then((url) => self.postMessage({ id, url } satisfies ThumbnailAnswer));
});
