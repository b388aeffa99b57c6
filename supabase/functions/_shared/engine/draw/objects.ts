// Objects: bananas (for the playful yellow style and any prompt asking for fruit) and brass gears
// (steampunk machinery), both drawn from parametric outlines.
import { Layer } from "../canvas.ts";
import { mix } from "../color.ts";
import { type Draw, groundY } from "./context.ts";

export function drawBanana(d: Draw, x01: number, scale: number): void {
  const { c, p, rng, W, U } = d;
  c.drawLayer = Layer.figure;
  const count = rng.int(1, 3);
  for (let k = 0; k < count; k++) {
    const S = U * 0.3 * scale * (k === 0 ? 1 : 0.75);
    const x = x01 * W + (k - (count - 1) / 2) * S * 0.55,
      y = groundY(d, 0.6) - S * 0.3 - k * S * 0.05;
    const rot = rng.range(-0.5, 0.5) + (k - 1) * 0.3;
    const outer: number[] = [],
      inner: number[] = [];
    const cos = Math.cos(rot),
      sin = Math.sin(rot);
    const put = (list: number[], px: number, py: number, front: boolean) => {
      const rx = x + px * cos - py * sin,
        ry = y + px * sin + py * cos;
      if (front) list.push(rx, ry);
      else list.unshift(rx, ry);
    };
    for (let i = 0; i <= 24; i++) {
      const a = Math.PI * (0.15 + 0.7 * (i / 24));
      const thick = Math.sin(Math.PI * (i / 24)) * 0.16 + 0.02;
      put(outer, -Math.cos(a) * S * 0.5, Math.sin(a) * S * 0.5 - S * 0.35, true);
      put(inner, -Math.cos(a) * S * (0.5 - thick), Math.sin(a) * S * (0.5 - thick) - S * 0.35 - thick * S * 0.3, false);
    }
    c.fillPolygon([...outer, ...inner], {
      radial: [x, y - S * 0.3, S * 0.6],
      from: mix(p.banana, [255, 255, 255], 0.25),
      to: mix(p.banana, p.fire, 0.3),
    });
    const tip = (i: number) => [outer[i], outer[i + 1]];
    const [ax, ay] = tip(0),
      [bx, by] = tip(outer.length - 2);
    c.fillCircle(ax, ay, S * 0.025, mix(p.trunk, p.ink, 0.3));
    c.fillCircle(bx, by, S * 0.03, mix(p.trunk, p.ink, 0.3));
  }
}

/** A gear with `teeth` teeth and a hub, shaded like brass. */
function gear(d: Draw, x: number, y: number, r: number, teeth: number, angle: number): void {
  const { c, p } = d;
  const pts: number[] = [];
  const steps = teeth * 4;
  for (let i = 0; i < steps; i++) {
    const a = angle + (i / steps) * Math.PI * 2;
    const rr = i % 4 < 2 ? r : r * 0.82;
    pts.push(x + Math.cos(a) * rr, y + Math.sin(a) * rr);
  }
  const brass = mix(p.accent2, p.metal, 0.35);
  c.fillPolygon(pts, {
    radial: [x - r * 0.4, y - r * 0.4, r * 1.8],
    from: mix(brass, [255, 255, 255], 0.3),
    to: mix(brass, p.ink, 0.5),
  });
  c.fillCircle(x, y, r * 0.62, mix(brass, p.ink, 0.25), 0.5);
  for (let k = 0; k < 5; k++) {
    const a = angle + (k / 5) * Math.PI * 2;
    c.strokeLine(x, y, x + Math.cos(a) * r * 0.62, y + Math.sin(a) * r * 0.62, r * 0.1, brass);
  }
  c.fillCircle(x, y, r * 0.2, brass);
  c.fillCircle(x, y, r * 0.08, mix(p.ink, brass, 0.2));
}

export function drawGears(d: Draw): void {
  const { c, rng, W, H, U } = d;
  c.drawLayer = Layer.figure;
  const corner = rng.chance(0.5) ? 1 : 0;
  const cx = corner ? W * 0.86 : W * 0.14,
    cy = H * 0.2;
  const big = U * 0.16;
  gear(d, cx, cy, big, 12, rng.next());
  gear(d, cx + (corner ? -1 : 1) * big * 1.55, cy + big * 0.75, big * 0.62, 8, rng.next());
  gear(d, cx + (corner ? -1 : 1) * big * 0.4, cy + big * 1.6, big * 0.5, 7, rng.next());
}
