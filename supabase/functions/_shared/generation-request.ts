// Server-side validation of a generate-image request (docs/spec.md §5), so no client can skip it: returns the
// normalised request or the first invalid_input with the spec's message. Everything here is cheap: the
// reference image's format and header size are read from its bytes (so its declared type is never
// trusted), but it is decoded only by decodeReference, after the caller's identity is verified.
import { type AppError, appError, invalidInput, type Result } from "./errors.ts";
import { type DecodedImage, decodeImage, inspectImage, parseDataUrl } from "./image/decode.ts";
import type { ImageErrorCode, ImageResult } from "./image/result.ts";
import { isProviderId } from "./providers/select.ts";
import type { ProviderId, ReferenceImage } from "./providers/types.ts";
import { VALIDATION_MESSAGES } from "./vocabulary/errors.ts";
import type { GenerateImageBody } from "./vocabulary/generate-image.ts";
import { validateNegativePrompt, validatePrompt } from "./vocabulary/prompt.ts";
import {
  ASPECT_RATIOS,
  GENERATION_DEFAULTS,
  type GenerationChoice,
  QUALITIES,
  REFERENCE_IMAGE_MAX_BYTES,
  SEED_MAX,
} from "./vocabulary/generation.ts";
import { STYLE_IDS, type StyleId } from "./vocabulary/styles.ts";
import { applyCustomStyle, parseAppliedCustomStyle } from "./vocabulary/custom-styles.ts";

export interface GenerationRequest extends GenerationChoice<StyleId> {
  requestId: string;
  /** null when the person left the seed empty (random). */
  seed: number | null;
  /** Checked but not yet decoded (decodeReference). */
  reference: ReferenceUpload | null;
  provider: ProviderId | null;
  timezone: string | null;
  /** The custom style applied to prompt and negativePrompt (decision 152), or null. */
  customStyle: { id: string; name: string } | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const absent = (v: unknown) => v === undefined || v === null;

function oneOf<T extends string>(v: unknown, values: readonly T[], fallback: T, message: string): Result<T> {
  if (absent(v)) return { ok: true, value: fallback };
  if (typeof v === "string" && (values as readonly string[]).includes(v)) return { ok: true, value: v as T };
  return { ok: false, error: invalidInput(message) };
}

function seedOf(v: unknown): Result<number | null> {
  if (absent(v) || v === "") return { ok: true, value: null };
  const n = typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= SEED_MAX) return { ok: true, value: n };
  return { ok: false, error: invalidInput(`Seed must be a whole number from 0 to ${SEED_MAX}`) };
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * A reference image as validated before the caller is known: a well-formed data URL within the byte
 * limit, whose bytes are a PNG, JPEG or GIF whose header declares a size within the limits, in a file
 * large enough to hold it. Nothing has been decoded yet: decodeReference does that, once the caller's
 * identity is verified (the decode is the one expensive step of validation).
 */
export interface ReferenceUpload {
  bytes: Uint8Array;
  /** The data URL re-labelled with the type the bytes really are. */
  dataUrl: string;
  mimeType: string;
  width: number;
  height: number;
}

const tooManyPixels = (): AppError => invalidInput(VALIDATION_MESSAGES.referenceTooLarge, 413);

function imageError(code: ImageErrorCode): AppError {
  switch (code) {
    case "image_too_large":
      return tooManyPixels();
    case "image_unsupported_format":
      return invalidInput("Please select a PNG, JPEG or GIF image");
    case "image_too_slow":
      return invalidInput("The reference image takes too long to read; please use a smaller PNG or JPEG", 422);
    default:
      return invalidInput(VALIDATION_MESSAGES.notAnImage);
  }
}

function referenceOf(v: unknown): Result<ReferenceUpload | null> {
  if (absent(v) || v === "") return { ok: true, value: null };
  const notImage: AppError = invalidInput(VALIDATION_MESSAGES.notAnImage);
  if (typeof v !== "string") return { ok: false, error: notImage };
  const parsed = parseDataUrl(v, REFERENCE_IMAGE_MAX_BYTES);
  if (!parsed.ok) {
    if (parsed.error.code === "image_too_large") {
      return {
        ok: false,
        error: invalidInput(`The reference image must be at most ${REFERENCE_IMAGE_MAX_BYTES / 1024 / 1024} MB`, 413),
      };
    }
    return { ok: false, error: notImage };
  }
  const inspected = inspectImage(parsed.value.bytes);
  if (!inspected.ok) return { ok: false, error: imageError(inspected.error.code) };
  const { width, height, format } = inspected.value;
  // Providers get the type the bytes really are, not the one the client declared.
  const mimeType = `image/${format}`;
  const dataUrl = `data:${mimeType};base64,${v.slice(v.indexOf(",") + 1).replace(/[\t\n\f\r ]+/g, "")}`;
  return { ok: true, value: { bytes: parsed.value.bytes, dataUrl, mimeType, width, height } };
}

/**
 * Decodes an untrusted image file within the decoder's limits. Where it runs is the platform's choice
 * (generate-image/deps.ts): in this isolate by default, in the local backend's render processes with a
 * time budget, so a decode there never holds the server's event loop.
 */
export type ReferenceDecoder = (file: Uint8Array) => Promise<ImageResult<DecodedImage>>;

export const decodeInIsolate: ReferenceDecoder = (file) => Promise.resolve(decodeImage(file));

/** Decodes a reference image that passed referenceOf's cheap checks; call it only for a verified caller. */
export async function decodeReference(
  upload: ReferenceUpload,
  decode: ReferenceDecoder = decodeInIsolate,
): Promise<Result<ReferenceImage>> {
  let decoded: ImageResult<DecodedImage>;
  try {
    decoded = await decode(upload.bytes);
  } catch (e) {
    // The decoder itself failed (a process that could not start, say), not the file.
    return { ok: false, error: appError("server_error", { detail: `reference decode failed: ${String(e)}` }) };
  }
  if (!decoded.ok) return { ok: false, error: imageError(decoded.error.code) };
  const { width, height, rgba, cells } = decoded.value;
  return { ok: true, value: { dataUrl: upload.dataUrl, mimeType: upload.mimeType, width, height, rgba, cells } };
}

/** `headerTimezone` is the X-Timezone header, used when the body carries no `timezone`. */
export function parseGenerationRequest(body: unknown, headerTimezone: string | null): Result<GenerationRequest> {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    return { ok: false, error: invalidInput("The request body must be a JSON object") };
  }
  // The field names are the wire type's (vocabulary/generate-image.ts); their values are not trusted yet.
  const b = body as { [K in keyof GenerateImageBody]?: unknown };
  if (typeof b.request_id !== "string" || !UUID.test(b.request_id)) {
    return { ok: false, error: invalidInput("request_id must be a UUID") };
  }
  const prompt = typeof b.prompt === "string" ? b.prompt.trim() : "";
  const promptError = validatePrompt(prompt);
  if (promptError) return { ok: false, error: invalidInput(promptError) };
  if (!absent(b.negative_prompt) && typeof b.negative_prompt !== "string") {
    return { ok: false, error: invalidInput("The negative prompt must be text") };
  }
  const negativePrompt = ((b.negative_prompt as string | undefined) ?? "").trim();
  const negativeError = validateNegativePrompt(negativePrompt);
  if (negativeError) return { ok: false, error: invalidInput(negativeError) };
  const style = oneOf(b.style, STYLE_IDS, GENERATION_DEFAULTS.style, "Please choose one of the listed styles");
  if (!style.ok) return style;
  const quality = oneOf(
    b.quality,
    QUALITIES,
    GENERATION_DEFAULTS.quality,
    `Quality must be one of ${QUALITIES.join(", ")}`,
  );
  if (!quality.ok) return quality;
  const aspectRatio = oneOf(
    b.aspect_ratio,
    ASPECT_RATIOS,
    GENERATION_DEFAULTS.aspectRatio,
    `Aspect ratio must be one of ${ASPECT_RATIOS.join(", ")}`,
  );
  if (!aspectRatio.ok) return aspectRatio;
  const seed = seedOf(b.seed);
  if (!seed.ok) return seed;
  if (!absent(b.provider) && !isProviderId(b.provider)) {
    return { ok: false, error: invalidInput("Unknown image provider") };
  }
  const tzRaw = absent(b.timezone) ? headerTimezone : b.timezone;
  if (!absent(tzRaw) && (typeof tzRaw !== "string" || !isTimeZone(tzRaw))) {
    return { ok: false, error: invalidInput("Unknown time zone") };
  }
  const reference = referenceOf(b.reference_image);
  if (!reference.ok) return reference;
  // A custom style's words join the prompt here, and the spec's limits hold for what is drawn.
  const custom = parseAppliedCustomStyle(b.custom_style);
  if ("error" in custom) return { ok: false, error: invalidInput(custom.error) };
  const applied = applyCustomStyle(prompt, negativePrompt, custom.value);
  if (applied.error) return { ok: false, error: invalidInput(applied.error) };
  return {
    ok: true,
    value: {
      requestId: b.request_id.toLowerCase(),
      prompt: applied.prompt,
      negativePrompt: applied.negativePrompt,
      style: style.value,
      quality: quality.value,
      aspectRatio: aspectRatio.value,
      seed: seed.value,
      reference: reference.value,
      provider: (b.provider as ProviderId | undefined) ?? null,
      timezone: (tzRaw as string | null | undefined) || null,
      customStyle: custom.value ? { id: custom.value.id, name: custom.value.name } : null,
    },
  };
}
