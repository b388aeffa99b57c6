// Image bytes no one chose, for reference images and stored objects: valid small PNG, JPEG and GIF, the
// same cut short or with bytes flipped, headers declaring dimensions at and past the limits (4096 on a
// side, 16 megapixels) over a few kilobytes of data, zlib bombs, and polyglots (one format's header
// over another's body). What costs the fuzzer time to build (the deflated bombs) is built once a shape.
import { crc32, deflateSync } from "node:zlib";
import jpeg from "jpeg-js";
import { GifWriter } from "omggif";
import { gifBomb, jpegBomb } from "../../tests/support/hostile.ts";
import { png } from "../../tests/support/png.ts";
import type { Rng } from "./grammar.ts";

export interface FuzzImage {
  /** What it is, for the report. */
  name: string;
  mime: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** Declared sizes: under, at and past the reference limits, and absurd. */
const DECLARED: readonly [number, number][] = [
  [4096, 3900],
  [4000, 4000],
  [4096, 4096],
  [3000, 3000],
  [2048, 2048],
  [4097, 16],
  [1, 4096],
  [65_535, 65_535],
  [0, 10],
];

/** The most a bomb inflates to (its IDAT is then about 32 KB). */
const BOMB_BYTES = 32 * 1024 * 1024;

const cache = new Map<string, Uint8Array<ArrayBuffer>>();
function once(key: string, make: () => Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  let v = cache.get(key);
  if (!v) cache.set(key, (v = make()));
  return v;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), Buffer.from(data)]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A PNG declaring w×h (colour type and depth chosen) whose IDAT inflates to `rows` rows of zeros: with
 * few rows, a few hundred bytes that claim megapixels; with all rows, a zlib bomb of tens of megabytes.
 */
function declaredPng(w: number, h: number, colourType: number, rows: number): Uint8Array<ArrayBuffer> {
  return once(`png ${w} ${h} ${colourType} ${rows}`, () => {
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(w, 0);
    ihdr.writeUInt32BE(h, 4);
    ihdr.set([8, colourType, 0, 0, 0], 8);
    const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colourType] ?? 4;
    const rowBytes = Math.min(w * channels + 1, 1 << 20);
    const raw = Buffer.alloc(Math.max(1, Math.min(rows, Math.floor(BOMB_BYTES / rowBytes))) * rowBytes);
    return new Uint8Array(
      Buffer.concat([
        PNG_SIGNATURE,
        chunk("IHDR", ihdr),
        chunk("IDAT", deflateSync(raw, { level: 9 })),
        chunk("IEND", new Uint8Array()),
      ]),
    );
  });
}

function smallPng(r: Rng): Uint8Array<ArrayBuffer> {
  const w = r.int(1, 48);
  const h = r.int(1, 48);
  return once(`small png ${w} ${h}`, () => png(w, h, (x, y) => [(x * 5) & 255, (y * 5) & 255, 90]));
}

function smallJpeg(r: Rng): Uint8Array<ArrayBuffer> {
  const w = r.int(1, 48);
  const h = r.int(1, 48);
  return once(`jpeg ${w} ${h}`, () => {
    const data = Buffer.alloc(w * h * 4, 128);
    return new Uint8Array(jpeg.encode({ data, width: w, height: h }, 80).data);
  });
}

function smallGif(r: Rng): Uint8Array<ArrayBuffer> {
  const w = r.int(1, 48);
  const h = r.int(1, 48);
  const frames = r.int(1, 3);
  return once(`gif ${w} ${h} ${frames}`, () => {
    const buf = Buffer.alloc(1024 + w * h * 2 * frames);
    const writer = new GifWriter(buf, w, h, { palette: [0x000000, 0xffffff], loop: 0 });
    for (let f = 0; f < frames; f++) writer.addFrame(0, 0, w, h, new Array(w * h).fill(f % 2), { delay: 5 });
    return new Uint8Array(buf.subarray(0, writer.end()));
  });
}

/** A JPEG whose frame header says w×h, over a valid small JPEG's body. */
function declaredJpeg(r: Rng, w: number, h: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(smallJpeg(r));
  for (let i = 2; i + 8 < bytes.length; i++) {
    if (bytes[i] === 0xff && (bytes[i + 1] === 0xc0 || bytes[i + 1] === 0xc2)) {
      bytes.set([(h >> 8) & 255, h & 255, (w >> 8) & 255, w & 255], i + 5);
      break;
    }
  }
  return bytes;
}

/** A GIF whose screen and frame say w×h, over a valid small GIF's body. */
function declaredGif(r: Rng, w: number, h: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(smallGif(r));
  bytes.set([w & 255, (w >> 8) & 255, h & 255, (h >> 8) & 255], 6);
  return bytes;
}

function mutate(r: Rng, src: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(src);
  for (let i = r.int(1, 8); i > 0; i--) bytes[r.int(0, bytes.length - 1)] = r.int(0, 255);
  return bytes;
}

const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** One image of any of the kinds above. */
export function fuzzImage(r: Rng): FuzzImage {
  const [w, h] = r.pick(DECLARED);
  const valid = (): FuzzImage =>
    r.pick([
      { name: "png", mime: "image/png", bytes: smallPng(r) },
      { name: "jpeg", mime: "image/jpeg", bytes: smallJpeg(r) },
      { name: "gif", mime: "image/gif", bytes: smallGif(r) },
    ]);
  return r.weighted<FuzzImage>([
    [3, valid],
    [
      3,
      () => {
        const v = valid();
        return { name: `truncated ${v.name}`, mime: v.mime, bytes: v.bytes.slice(0, r.int(0, v.bytes.length - 1)) };
      },
    ],
    [
      2,
      () => {
        const v = valid();
        return { name: `flipped ${v.name}`, mime: v.mime, bytes: mutate(r, v.bytes) };
      },
    ],
    [
      3,
      () => ({
        name: `png declaring ${w}x${h}`,
        mime: "image/png",
        bytes: declaredPng(w, h, r.pick([0, 2, 6]), r.pick([1, 16, 64])),
      }),
    ],
    [1, () => ({ name: `png bomb ${w}x${h}`, mime: "image/png", bytes: declaredPng(w, h, 6, h) })],
    [2, () => ({ name: `jpeg declaring ${w}x${h}`, mime: "image/jpeg", bytes: declaredJpeg(r, w, h) })],
    [2, () => ({ name: `gif declaring ${w}x${h}`, mime: "image/gif", bytes: declaredGif(r, w, h) })],
    [1, () => ({ name: "gif bomb", mime: "image/gif", bytes: gifBomb() })],
    [1, () => ({ name: "jpeg bomb", mime: "image/jpeg", bytes: jpegBomb() })],
    [
      2,
      () => {
        const [a, b] = [valid(), valid()];
        return r.pick([
          { name: `polyglot ${a.name}+${b.name}`, mime: a.mime, bytes: concat(a.bytes, b.bytes) },
          {
            name: `polyglot ${a.name} signature over ${b.name}`,
            mime: a.mime,
            bytes: concat(a.bytes.slice(0, 8), b.bytes),
          },
          {
            name: `${a.name} with html`,
            mime: a.mime,
            bytes: concat(a.bytes, Buffer.from("<script>alert(1)</script>")),
          },
          { name: `${a.name} declared as ${b.mime}`, mime: b.mime, bytes: a.bytes },
        ]);
      },
    ],
    [
      1,
      () => ({
        name: "not an image",
        mime: r.pick(["image/png", "image/webp", "image/svg+xml"]),
        bytes: new Uint8Array(Buffer.from("<svg/>")),
      }),
    ],
  ]);
}
