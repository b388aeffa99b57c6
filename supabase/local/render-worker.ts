// One render worker of render-pool.ts: runs the built-in engine's renderPng for each request and
// answers the PNG bytes (transferred, not copied) or the error's message.
import { renderPng } from "../functions/_shared/engine/render.ts";
import type { RenderReply, RenderRequest } from "./render-pool.ts";

// The worker's global scope, typed by what this module uses of it.
const scope = self as unknown as {
  onmessage: ((e: MessageEvent<RenderRequest>) => void) | null;
  postMessage(message: RenderReply, transfer?: Transferable[]): void;
};

scope.onmessage = async ({ data: { id, input } }) => {
  try {
    const bytes = await renderPng(input);
    scope.postMessage({ id, ok: true, bytes }, [bytes.buffer as ArrayBuffer]);
  } catch (e) {
    scope.postMessage({ id, ok: false, message: e instanceof Error ? e.message : String(e) });
  }
};
