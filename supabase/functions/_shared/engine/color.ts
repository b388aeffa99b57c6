// Colours as [r, g, b] with channels in 0..255, and the few conversions the palette logic needs.
export type Rgb = readonly [number, number, number];

export function hex(value: string): Rgb {
  const n = parseInt(value.replace("#", ""), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function scale(c: Rgb, k: number): Rgb {
  return [c[0] * k, c[1] * k, c[2] * k];
}

export function luma(c: Rgb): number {
  return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
}

/** Hue in degrees [0, 360), saturation and lightness in [0, 1]. */
export function toHsl(c: Rgb): [number, number, number] {
  const r = c[0] / 255,
    g = c[1] / 255,
    b = c[2] / 255;
  const max = Math.max(r, g, b),
    min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  h *= 60;
  return [h, s, l];
}

export function fromHsl(h: number, s: number, l: number): Rgb {
  h = ((h % 360) + 360) % 360;
  s = Math.min(1, Math.max(0, s));
  l = Math.min(1, Math.max(0, l));
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] = h < 60 ?
    [c, x, 0] :
    h < 120 ?
    [x, c, 0] :
    h < 180 ?
    [0, c, x] :
    h < 240 ?
    [0, x, c] :
    h < 300 ?
    [x, 0, c] :
    [c, 0, x];
  return [(r + m) * 255, (g + m) * 255, (b + m) * 255];
}

export function hueDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/** Multiplies saturation and shifts lightness, keeping the hue. */
export function adjust(c: Rgb, saturation: number, lightness = 0): Rgb {
  const [h, s, l] = toHsl(c);
  return fromHsl(h, s * saturation, l + lightness);
}
