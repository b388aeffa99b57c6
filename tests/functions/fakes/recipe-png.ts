// A PNG whose colour is a hash of everything that decides a picture (prompt, seed, size, steps, model):
// a fake that promises determinism draws the same bytes for the same recipe and different ones otherwise.
import { solidPng } from "./fake-server.ts";

export function recipeHash(parts: readonly unknown[]): number {
  const text = JSON.stringify(parts);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function recipePng(width: number, height: number, parts: readonly unknown[]): Uint8Array {
  const h = recipeHash(parts);
  return solidPng(width, height, [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff]);
}

/** A fake's random seed when the caller sends none (unsigned 32-bit). */
export const randomSeed = (): number => crypto.getRandomValues(new Uint32Array(1))[0];
