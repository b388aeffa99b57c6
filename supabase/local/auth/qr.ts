// A QR code encoder (ISO/IEC 18004) for the otpauth:// URI of a TOTP enrolment, drawn as SVG as GoTrue
// answers it: byte mode, error correction level H (GoTrue's), the smallest version that holds the text
// (up to version 20, 382 bytes; longer text throws), and the mask with the lowest penalty score.

/** Level H error correction per version: [EC codewords per block, [blocks, data codewords per block]...]. */
const BLOCKS_H: [number, ...[number, number][]][] = [
  [17, [1, 9]],
  [28, [1, 16]],
  [22, [2, 13]],
  [16, [4, 9]],
  [22, [2, 11], [2, 12]],
  [28, [4, 15]],
  [26, [4, 13], [1, 14]],
  [26, [4, 14], [2, 15]],
  [24, [4, 12], [4, 13]],
  [28, [6, 15], [2, 16]],
  [24, [3, 12], [8, 13]],
  [28, [7, 14], [4, 15]],
  [22, [12, 11], [4, 12]],
  [24, [11, 12], [5, 13]],
  [24, [11, 12], [7, 13]],
  [30, [3, 15], [13, 16]],
  [28, [2, 14], [17, 15]],
  [28, [2, 14], [19, 15]],
  [26, [9, 13], [16, 14]],
  [28, [15, 15], [10, 16]],
];

/** Centre coordinates of alignment patterns per version (version 1 has none). */
const ALIGN: number[][] = [
  [],
  [6, 18],
  [6, 22],
  [6, 26],
  [6, 30],
  [6, 34],
  [6, 22, 38],
  [6, 24, 42],
  [6, 26, 46],
  [6, 28, 50],
  [6, 30, 54],
  [6, 32, 58],
  [6, 34, 62],
  [6, 26, 46, 66],
  [6, 26, 48, 70],
  [6, 26, 50, 74],
  [6, 30, 54, 78],
  [6, 30, 56, 82],
  [6, 30, 58, 86],
  [6, 34, 62, 90],
];

// GF(256) with the QR primitive polynomial x^8 + x^4 + x^3 + x^2 + 1.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
}
const mul = (a: number, b: number) => (a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]]);

/** The Reed-Solomon remainder of `data` for `n` error correction codewords. */
function reedSolomon(data: number[], n: number): number[] {
  // Generator polynomial (x - a^0)(x - a^1)...(x - a^(n-1)), highest degree first, leading 1 implied.
  let gen = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array(gen.length + 1).fill(0);
    for (let j = 0; j < gen.length; j++) {
      next[j] ^= gen[j];
      next[j + 1] ^= mul(gen[j], EXP[i]);
    }
    gen = next;
  }
  const rem = new Array(n).fill(0);
  for (const byte of data) {
    const factor = byte ^ rem[0];
    rem.shift();
    rem.push(0);
    for (let j = 0; j < n; j++) rem[j] ^= mul(gen[j + 1], factor);
  }
  return rem;
}

/** The final codeword sequence (data and EC interleaved) for `bytes` at `version`. */
function codewords(bytes: Uint8Array, version: number): number[] {
  const [ecLen, ...groups] = BLOCKS_H[version - 1];
  const dataTotal = groups.reduce((s, [n, k]) => s + n * k, 0);
  const bits: number[] = [];
  const put = (value: number, len: number) => {
    for (let i = len - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  put(0, Math.min(4, dataTotal * 8 - bits.length));
  while (bits.length % 8) bits.push(0);
  const data: number[] = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; data.length < dataTotal; pad ^= 0xec ^ 0x11) data.push(pad);

  const blocks: number[][] = [];
  let at = 0;
  for (const [n, k] of groups) {
    for (let i = 0; i < n; i++) {
      blocks.push(data.slice(at, at + k));
      at += k;
    }
  }
  const ecBlocks = blocks.map((b) => reedSolomon(b, ecLen));
  const out: number[] = [];
  const longest = Math.max(...blocks.map((b) => b.length));
  for (let i = 0; i < longest; i++) for (const b of blocks) if (i < b.length) out.push(b[i]);
  for (let i = 0; i < ecLen; i++) for (const b of ecBlocks) out.push(b[i]);
  return out;
}

/** The BCH remainder of `value` (already shifted) by generator `gen`. */
function bch(value: number, gen: number): number {
  const genLen = 32 - Math.clz32(gen);
  let v = value;
  while (32 - Math.clz32(v) >= genLen) v ^= gen << (32 - Math.clz32(v) - genLen);
  return v;
}

const MASKS: ((r: number, c: number) => boolean)[] = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

type Grid = { dark: boolean[][]; fixed: boolean[][]; size: number };

/** The function patterns (finders, separators, timing, alignment, dark module, reserved areas). */
function baseGrid(version: number): Grid {
  const size = version * 4 + 17;
  const dark = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const fixed = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const set = (r: number, c: number, on: boolean) => {
    dark[r][c] = on;
    fixed[r][c] = true;
  };
  for (const [fr, fc] of [[0, 0], [0, size - 7], [size - 7, 0]]) {
    for (let r = -1; r <= 7; r++) {
      for (let c = -1; c <= 7; c++) {
        const rr = fr + r, cc = fc + c;
        if (rr < 0 || cc < 0 || rr >= size || cc >= size) continue;
        const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
        set(rr, cc, ring !== 2 && ring !== 4);
      }
    }
  }
  for (let i = 8; i < size - 8; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  const centres = ALIGN[version - 1];
  const last = centres.length - 1;
  centres.forEach((r, i) =>
    centres.forEach((c, j) => {
      // Not where a finder pattern is (the three corners).
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      for (let dr = -2; dr <= 2; dr++) {
        for (let dc = -2; dc <= 2; dc++) set(r + dr, c + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
      }
    })
  );
  // Format information areas (written later) and the dark module.
  for (let i = 0; i < 9; i++) {
    if (!fixed[8][i]) set(8, i, false);
    if (!fixed[i][8]) set(i, 8, false);
  }
  for (let i = 0; i < 8; i++) {
    set(8, size - 1 - i, false);
    set(size - 1 - i, 8, false);
  }
  set(size - 8, 8, true);
  if (version >= 7) {
    const info = (version << 12) | bch(version << 12, 0x1f25);
    for (let i = 0; i < 18; i++) {
      const on = ((info >>> i) & 1) === 1;
      const a = Math.floor(i / 3), b = (i % 3) + size - 11;
      set(a, b, on);
      set(b, a, on);
    }
  }
  return { dark, fixed, size };
}

function writeFormat(grid: Grid, mask: number): void {
  const { dark, size } = grid;
  const data = (0b10 << 3) | mask; // level H
  const bits = ((data << 10) | bch(data << 10, 0x537)) ^ 0x5412;
  const bit = (i: number) => ((bits >>> i) & 1) === 1;
  for (let i = 0; i < 15; i++) {
    // Around the top-left finder.
    if (i < 6) dark[i][8] = bit(i);
    else if (i < 8) dark[i + 1][8] = bit(i);
    else dark[8][14 - i + (i === 8 ? 1 : 0)] = bit(i);
    // Split between the other two finders.
    if (i < 8) dark[8][size - 1 - i] = bit(i);
    else dark[size - 15 + i][8] = bit(i);
  }
}

function placeData(grid: Grid, cw: number[], mask: number): boolean[][] {
  const { fixed, size } = grid;
  const dark = grid.dark.map((row) => row.slice());
  const bits: number[] = [];
  for (const b of cw) for (let i = 7; i >= 0; i--) bits.push((b >>> i) & 1);
  let k = 0;
  let upward = true;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let n = 0; n < size; n++) {
      const r = upward ? size - 1 - n : n;
      for (const c of [right, right - 1]) {
        if (fixed[r][c]) continue;
        const on = k < bits.length ? bits[k] === 1 : false;
        k++;
        dark[r][c] = on !== MASKS[mask](r, c);
      }
    }
    upward = !upward;
  }
  return dark;
}

/** The standard's penalty score (rules 1 to 4) of a finished symbol. */
function penalty(m: boolean[][]): number {
  const size = m.length;
  let score = 0;
  const line = (get: (i: number, j: number) => boolean) => {
    for (let i = 0; i < size; i++) {
      let run = 1;
      for (let j = 1; j <= size; j++) {
        if (j < size && get(i, j) === get(i, j - 1)) run++;
        else {
          if (run >= 5) score += run - 2;
          run = 1;
        }
      }
      // Rule 3: a finder-like 1:1:3:1:1 run with four light modules on one side. The line's modules are
      // read once into bits, then each window of 11 is compared as a number (no array a position).
      let bits = 0;
      for (let j = 0; j < size; j++) {
        bits = ((bits << 1) | (get(i, j) ? 1 : 0)) & 0x7ff;
        if (j >= 10 && (bits === 0b10111010000 || bits === 0b00001011101)) score += 40;
      }
    }
  };
  line((i, j) => m[i][j]);
  line((i, j) => m[j][i]);
  let darkCount = 0;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (m[r][c]) darkCount++;
      if (r + 1 < size && c + 1 < size) {
        const v = m[r][c];
        if (m[r][c + 1] === v && m[r + 1][c] === v && m[r + 1][c + 1] === v) score += 3;
      }
    }
  }
  score += Math.floor(Math.abs((darkCount * 20) / (size * size) - 10)) * 10;
  return score;
}

/** The module matrix (true = dark) of `text` at level H, with the mask given or the best one. */
export function qrMatrix(text: string, forceMask?: number): boolean[][] {
  const bytes = new TextEncoder().encode(text);
  let version = 0;
  for (let v = 1; v <= BLOCKS_H.length; v++) {
    const [, ...groups] = BLOCKS_H[v - 1];
    const dataTotal = groups.reduce((sum, [n, k]) => sum + n * k, 0);
    if (4 + (v < 10 ? 8 : 16) + bytes.length * 8 <= dataTotal * 8) {
      version = v;
      break;
    }
  }
  if (!version) throw new Error("Text too long for a QR code at level H up to version 20");
  const cw = codewords(bytes, version);
  let best: boolean[][] | null = null;
  let bestScore = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    if (forceMask !== undefined && mask !== forceMask) continue;
    const grid = baseGrid(version);
    grid.dark = placeData(grid, cw, mask);
    writeFormat(grid, mask);
    const score = penalty(grid.dark);
    if (score < bestScore) {
      bestScore = score;
      best = grid.dark;
    }
  }
  return best!;
}

/** The QR code of `text` as an SVG document: 3 units a module, 4 modules of quiet zone around it. */
export function qrSvg(text: string): string {
  const m = qrMatrix(text);
  const unit = 3, quiet = 4;
  const side = (m.length + quiet * 2) * unit;
  let path = "";
  m.forEach((row, r) =>
    row.forEach((on, c) => {
      if (on) path += `M${(c + quiet) * unit} ${(r + quiet) * unit}h${unit}v${unit}h-${unit}z`;
    })
  );
  // No "#" and no line breaks: supabase-js puts the document as it is into a data: URI for an <img>.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}">` +
    `<rect width="${side}" height="${side}" fill="white"/><path fill="black" d="${path}"/></svg>`;
}
