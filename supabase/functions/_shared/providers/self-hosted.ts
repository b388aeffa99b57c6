// What the two self-hosted engines (AUTOMATIC1111/Forge and ComfyUI) share: quality as a step count the
// operator may change, how far an image may stray from a reference, and HTTP Basic credentials for a
// server started with `--api-auth` or put behind a proxy that asks for them.
import type { Quality } from "../vocabulary/generation.ts";
import { decodeBase64 } from "./provider-http.ts";

export type StepsByQuality = Readonly<Record<Quality, number>>;

/** Sampling steps per quality for Stable Diffusion-class checkpoints. */
export const DEFAULT_SELF_HOSTED_STEPS: StepsByQuality = { standard: 20, high: 30, ultra: 40 };
const MAX_STEPS = 150;

/** How far an image may depart from a reference image (denoising strength; the other engines use 0.8 too). */
export const REFERENCE_DENOISE = 0.8;

/** `"20,30,40"` (standard, high, ultra) as steps; anything else keeps the defaults. */
export function parseSteps(value: string | undefined): StepsByQuality {
  const parts = (value ?? "").split(",").map((s) => Number(s.trim()));
  const valid = parts.length === 3 && parts.every((n) => Number.isInteger(n) && n >= 1 && n <= MAX_STEPS);
  return valid ? { standard: parts[0], high: parts[1], ultra: parts[2] } : DEFAULT_SELF_HOSTED_STEPS;
}

/** `Authorization: Basic` for a `user:password` pair, UTF-8 as browsers and curl send it. */
export function basicAuth(userColonPassword: string): string {
  const bytes = new TextEncoder().encode(userColonPassword);
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return `Basic ${btoa(s)}`;
}

/** The bytes of a data URL's base64 payload (a reference image, as the client sent it). */
export function dataUrlBytes(dataUrl: string): Uint8Array | null {
  return decodeBase64(dataUrl.slice(dataUrl.indexOf(",") + 1));
}
