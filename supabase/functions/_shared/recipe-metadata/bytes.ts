// Byte helpers the format writers share: UTF-8 and Latin-1 text, big- and little-endian integers, and
// joining parts into one array. Pure: every runtime (the app, Deno functions, tests) loads it.

const encoder = new TextEncoder();
const strict = new TextDecoder("utf-8", { fatal: true });

export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** The text of UTF-8 bytes, or null when they are not valid UTF-8. */
export function fromUtf8(bytes: Uint8Array): string | null {
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}

/** Latin-1 bytes of `text`, or null when it has a character beyond U+00FF. */
export function latin1(text: string): Uint8Array | null {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) return null;
    out[i] = c;
  }
  return out;
}

/** Bytes as Latin-1 text (every byte is a character): for four-character codes and keywords. */
export function ascii(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let s = "";
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

export function startsWith(bytes: Uint8Array, at: number, prefix: Uint8Array): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

export const u16be = (b: Uint8Array, o: number): number => (b[o] << 8) | b[o + 1];
export const u32be = (b: Uint8Array, o: number): number =>
  ((b[o] << 24) >>> 0) + ((b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]);
export const u16le = (b: Uint8Array, o: number): number => b[o] | (b[o + 1] << 8);
export const u32le = (b: Uint8Array, o: number): number =>
  (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16)) + ((b[o + 3] << 24) >>> 0);

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
