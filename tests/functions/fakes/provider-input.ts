// A validated generation input, as the handler gives it to a provider adapter.
import type { ProviderInput } from "../../../supabase/functions/_shared/providers/types.ts";
import { DIMENSIONS, GENERATION_DEFAULTS } from "../../../supabase/functions/_shared/vocabulary/generation.ts";

export function providerInput(overrides: Partial<ProviderInput> = {}): ProviderInput {
  return {
    requestId: "6f1c1d7e-3b7a-4c55-9d0e-2b8f5f7a9c01",
    prompt: "a lighthouse at dusk",
    negativePrompt: "",
    style: GENERATION_DEFAULTS.style,
    quality: GENERATION_DEFAULTS.quality,
    aspectRatio: GENERATION_DEFAULTS.aspectRatio,
    ...DIMENSIONS[GENERATION_DEFAULTS.aspectRatio],
    seed: 42,
    reference: null,
    ...overrides,
  };
}

/** A reference image as the handler hands it on: a 1×1 picture, as a data URL of `mimeType` and its pixels. */
export function referenceImage(mimeType = "image/png", base64 = "iVBORw0KGgo=") {
  return { dataUrl: `data:${mimeType};base64,${base64}`, mimeType, width: 1, height: 1, rgba: new Uint8Array(4) };
}

/** A signal that never fires, for calls that are not about deadlines. */
export const noDeadline = new AbortController().signal;

/** A port nothing listens on, to simulate an unreachable provider. */
export async function closedPortUrl(): Promise<string> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  await new Promise((r) => setTimeout(r, 10));
  return `http://127.0.0.1:${port}`;
}
