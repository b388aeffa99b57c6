// The worker behind render-image.ts: decodes, scales and encodes one stored image per message, off the
// server's event loop (a 1024 px PNG takes about a quarter of a second of pure computation).
import { type RenderJob, type RenderJobReply, renderVariant } from "./render-image.ts";

// The worker's global scope, typed by what this module uses of it.
const scope = self as unknown as {
  onmessage: ((e: MessageEvent<RenderJob>) => void) | null;
  postMessage(message: RenderJobReply, transfer?: Transferable[]): void;
};

scope.onmessage = async ({ data: { id, source, transform } }) => {
  try {
    const result = await renderVariant(source, transform);
    scope.postMessage({ id, result }, result.ok ? [result.value.bytes.buffer as ArrayBuffer] : []);
  } catch (e) {
    scope.postMessage({ id, failure: e instanceof Error ? e.message : String(e) });
  }
};
