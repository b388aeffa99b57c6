// OpenAI-style images adapter (OpenAI itself or any server speaking its /images/generations API):
// { model, prompt, n: 1, size } where size is 1024x1024 for square and 1792x1024 for any other ratio
// (docs/spec.md §9, DALL·E 3 sizes); GPT image models get their own portrait/landscape sizes. Takes url or b64_json.
import { appError, fail, ok, type Result } from "../errors.ts";
import type { AspectRatio } from "../vocabulary/generation.ts";
import { styledPrompt } from "../generation-options.ts";
import { decodeBase64, downloadOutput, type FetchFn, fetchJson, trimBase } from "./provider-http.ts";
import type { ImageProvider, ProviderImage } from "./types.ts";

export interface OpenAiConfig {
  apiKey: string;
  /** Base URL including the version path, as OpenAI's SDK takes it (default https://api.openai.com/v1). */
  baseUrl: string;
  model: string;
  fetch: FetchFn;
}

export function openAiSize(model: string, aspectRatio: AspectRatio): string {
  if (aspectRatio === "1:1") return "1024x1024";
  if (/^gpt-image/i.test(model)) return aspectRatio === "16:9" ? "1536x1024" : "1024x1536";
  return "1792x1024";
}

interface ImagesResponse {
  data?: { url?: string; b64_json?: string }[];
}

export function createOpenAiProvider(config: OpenAiConfig): ImageProvider {
  const url = `${trimBase(config.baseUrl)}/images/generations`;
  return {
    id: "openai",
    kind: "ai-model",
    model: () => config.model,
    async generate(input, signal): Promise<Result<ProviderImage>> {
      const body = await fetchJson(
        config.fetch,
        url,
        {
          method: "POST",
          headers: { Authorization: `Bearer ${config.apiKey}`, "Content-Type": "application/json" },
          body: JSON.stringify({
            model: config.model,
            prompt: styledPrompt(input.prompt, input.style),
            n: 1,
            size: openAiSize(config.model, input.aspectRatio),
          }),
        },
        signal,
        "openai",
      );
      if (!body.ok) return body;
      const first = (body.value as ImagesResponse).data?.[0];
      let bytes: Result<Uint8Array>;
      if (first?.b64_json) {
        const decoded = decodeBase64(first.b64_json);
        bytes = decoded ? ok(decoded) : fail(appError("server_error", { detail: "openai: bad b64_json" }));
      } else if (first?.url) {
        bytes = await downloadOutput(config.fetch, first.url, signal, "openai");
      } else {
        return fail(appError("server_error", { detail: "openai: no image in the answer" }));
      }
      if (!bytes.ok) return bytes;
      return ok({ bytes: bytes.value, seed: null, model: config.model });
    },
  };
}
