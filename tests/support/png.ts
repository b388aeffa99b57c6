// Real PNG files built in memory, for storage tests whose render route must decode what they upload.
import { crc32, deflateSync } from "node:zlib";

/** Grey: every channel at half. */
const GREY = (): [number, number, number] => [128, 128, 128];

/** A w×h 8-bit RGB PNG whose pixel at (x, y) is `pixel(x, y)` (grey unless given). */
export function png(
  w: number,
  h: number,
  pixel: (x: number, y: number) => [number, number, number] = GREY,
): Uint8Array<ArrayBuffer> {
  const chunk = (type: string, data: Uint8Array) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), Buffer.from(data)]);
    const out = Buffer.alloc(4 + body.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 4 + body.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type 2 (RGB), no interlace
  // Each row: filter type 0 (none), then its pixels.
  const raw = Buffer.alloc(h * (1 + 3 * w));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set(pixel(x, y), y * (1 + 3 * w) + 1 + 3 * x);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", ihdr),
      chunk("IDAT", deflateSync(raw)),
      chunk("IEND", new Uint8Array()),
    ]),
  );
}
