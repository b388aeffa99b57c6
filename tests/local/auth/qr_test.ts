// The QR code behind TOTP enrolment (the `qrcode` package's symbol, drawn here): a fixed symbol module for
// module (the expected rows were made by an independent QR implementation at the same level and mask), the
// version chosen by length at level H in byte mode, a valid level-H format word in both copies, and an SVG
// fit for a data: URI.
import assert from "node:assert/strict";
import { qrMatrix, qrSvg } from "../../../supabase/local/auth/qr.ts";

const rows = (m: boolean[][]) => m.map((r) => r.map((on) => (on ? "1" : "0")).join(""));

// "PromptCanvas", level H, mask 4 (version 2).
const EXPECTED = [
  "1111111001101101001111111",
  "1000001010101000001000001",
  "1011101001000101101011101",
  "1011101000111100101011101",
  "1011101001011111101011101",
  "1000001011100101001000001",
  "1111111010101010101111111",
  "0000000010010011100000000",
  "0000111100010100101100010",
  "1111100010101000110011100",
  "0110111001000110000010000",
  "1100110111101110011110111",
  "1111111001110011111100101",
  "1010000100010000000011110",
  "0000011000101101010100100",
  "0011010101001001100000110",
  "1110011001001100111111101",
  "0000000011101010100010011",
  "1111111010001001101011100",
  "1000001011011000100010110",
  "1011101010110101111111110",
  "1011101001110110111101001",
  "1011101000101010001101110",
  "1000001000011001110110110",
  "1111111001100000010110011",
];

Deno.test("encodes a fixed text module for module", () => {
  assert.deepEqual(rows(qrMatrix("PromptCanvas", 4)), EXPECTED);
});

Deno.test("chooses the smallest version that holds the text at level H", () => {
  const side = (n: number) => qrMatrix("x".repeat(n)).length;
  assert.equal(side(7), 21); // version 1
  assert.equal(side(8), 25); // version 2
  assert.equal(side(98), 53); // version 9, 8-bit length
  assert.equal(side(99), 57); // version 10, 16-bit length
  assert.equal(side(382), 97); // version 20
  assert.equal(side(1273), 177); // version 40, the largest
  assert.throws(() => qrMatrix("x".repeat(1274)));
});

Deno.test("writes the same valid level-H format word in both copies, with the best mask", () => {
  const m = qrMatrix("otpauth://totp/example.test:someone%40example.test?secret=JBSWY3DPEHPK3PXP");
  const size = m.length;
  const bit = (r: number, c: number) => (m[r][c] ? 1 : 0);
  let first = 0, second = 0;
  const firstAt = [
    ...[0, 1, 2, 3, 4, 5, 7, 8].map((r) => [r, 8]),
    ...[7, 5, 4, 3, 2, 1, 0].map((c) => [8, c]),
  ];
  firstAt.forEach(([r, c], i) => (first |= bit(r, c) << i));
  for (let i = 0; i < 8; i++) second |= bit(8, size - 1 - i) << i;
  for (let i = 8; i < 15; i++) second |= bit(size - 15 + i, 8) << i;
  assert.equal(first, second);
  const word = first ^ 0x5412;
  assert.equal(word >> 13, 0b10, "error correction level H");
  let rem = word;
  for (let i = 14; i >= 10; i--) if (rem & (1 << i)) rem ^= 0x537 << (i - 10);
  assert.equal(rem, 0, "BCH remainder of the format word");
  assert.equal(bit(size - 8, 8), 1, "dark module");
});

Deno.test("draws an SVG without characters a data: URI would cut at", () => {
  const svg = qrSvg("otpauth://totp/a:b?secret=ABC");
  assert.ok(svg.startsWith("<svg "));
  assert.ok(!svg.includes("#") && !svg.includes("\n"));
});
