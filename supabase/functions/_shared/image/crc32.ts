// CRC-32 (ISO 3309, the polynomial PNG chunks use), table driven.
const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** Continues a running CRC (start with 0) over bytes[start, end). */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = start; i < end; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
