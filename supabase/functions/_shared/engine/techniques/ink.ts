// Inked styles. Anime: cel bands on everything but the sky, thin dark lines, soft bloom. Comic book:
// flat posterised colour, heavy outlines, halftone shadows. Cartoon: flat bright colour, thick rounded
// outlines, a sunburst sky. Pop art: the scene four times in loud colour schemes with Ben-Day dots.
import { Canvas, Layer } from "../canvas.ts";
import { hex, mix, type Rgb } from "../color.ts";
import { bloom, blur, lumaOf, posterize } from "../filters.ts";
import { fastAtan2 } from "../trig.ts";
import { type Job, markSize, unit } from "./job.ts";
import { applyInk, celShade, edgeMask, halftone, isSky, layerEdges, maxInto, TEXTURED_LAYERS } from "./passes.ts";

export function anime(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const U = unit(job);
  const lines = edgeMask(c, 24, 0.8, 1, TEXTURED_LAYERS);
  maxInto(lines, layerEdges(c, true));
  for (let i = 0; i < lines.length; i++) if (isSky(c.layer[i]) && c.layer[i] !== Layer.cloud) lines[i] = 0;
  celShade(c, 4, true);
  applyInk(c, blur(lines, c.width, c.height, 1, 1), mix(job.scene.palette.ink, hex("#1b2a4a"), 0.5), 0.9);
  bloom(c, 215, U * 0.035, 0.4);
  return c;
}

export function comicBook(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const U = unit(job),
    ink = hex("#111111");
  const lines = maxInto(edgeMask(c, 26, 1, Math.max(1, U / 420), TEXTURED_LAYERS), layerEdges(c, true));
  posterize(c, 5);
  halftone(c, Math.max(3, markSize(job, U * 0.011)), Math.PI / 4, ink, 0.6, 0.38);
  const paper = hex("#fdf0d5"),
    d = c.data;
  for (let i = 0; i < lines.length; i++) {
    const k = i * 3;
    if (d[k] + d[k + 1] + d[k + 2] > 690) {
      d[k] = paper[0];
      d[k + 1] = paper[1];
      d[k + 2] = paper[2];
    }
  }
  applyInk(c, blur(lines, c.width, c.height, 1, Math.max(1, U / 500)), ink, 1.6);
  return c;
}

export function cartoon(job: Job): Canvas {
  const c = job.compose(job.width, job.height);
  const { width: w, height: h } = c,
    U = unit(job),
    s = job.scene;
  const lines = maxInto(edgeMask(c, 30, 1.5, Math.max(1, U / 380), TEXTURED_LAYERS), layerEdges(c, true));
  for (let i = 0; i < lines.length; i++) if (c.layer[i] === Layer.sky) lines[i] = 0;
  celShade(c, 4, true);
  const d = c.data,
    lx = s.light.x * w,
    ly = s.light.y * h;
  const sunburst = s.motifs.has("sun") && s.time !== "night";
  for (let y = 0; y < h && sunburst; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (c.layer[i] !== Layer.sky) continue;
      const wedge = Math.floor(((fastAtan2(y - ly, x - lx) + Math.PI) / (Math.PI * 2)) * 24) & 1;
      if (wedge) {
        const k = i * 3;
        d[k] += (255 - d[k]) * 0.12;
        d[k + 1] += (255 - d[k + 1]) * 0.12;
        d[k + 2] += (255 - d[k + 2]) * 0.12;
      }
    }
  }
  applyInk(c, blur(lines, w, h, 1, Math.max(1, U / 600)), hex("#1b1b1b"), 1.5);
  return c;
}

export function popArt(job: Job): Canvas {
  const { width: w, height: h } = job,
    U = unit(job);
  const lw = Math.floor(w / 2),
    th = Math.floor(h / 2);
  const pw = w - lw,
    ph = h - th;
  const panel = job.compose(pw, ph);
  const lum = lumaOf(panel);
  const lines = maxInto(edgeMask(panel, 26, 1, Math.max(1, U / 600), TEXTURED_LAYERS), layerEdges(panel, true));
  const t = job.style.tones;
  const [pink, yellow, blue, orange, green, black, white] = t;
  const schemes: Rgb[][] = [
    [pink, yellow, blue, white],
    [yellow, blue, pink, white],
    [blue, orange, green, white],
    [green, pink, yellow, white],
  ];
  const out = new Canvas(w, h);
  const cell = Math.max(3, markSize(job, U * 0.012));
  const words = job.scene.colors.length;
  for (let q = 0; q < 4; q++) {
    const scheme = schemes[(q + words) % 4];
    // A colour word in the prompt becomes the dominant background of the first panel.
    const bg = q === 0 && words > 0 ? mix(scheme[0], job.scene.palette.accent, 0.8) : scheme[0];
    const ox = q % 2 === 0 ? 0 : lw,
      oy = q < 2 ? 0 : th;
    const qw = q % 2 === 0 ? lw : pw,
      qh = q < 2 ? th : ph;
    for (let y = 0; y < qh; y++) {
      for (let x = 0; x < qw; x++) {
        const i = y * pw + x,
          l = lum[i] / 255;
        let col: Rgb;
        let dots = false;
        if (isSky(panel.layer[i])) col = l > 0.85 ? scheme[3] : bg;
        else if (l < 0.3) col = mix(scheme[2], black, 0.55);
        else if (l < 0.62) {
          col = scheme[1];
          dots = true;
        } else col = scheme[3];
        if (dots) {
          const u = (x + ox) / cell,
            v = (y + oy) / cell;
          const fu = u - Math.floor(u) - 0.5,
            fv = v - Math.floor(v) - 0.5;
          if (fu * fu + fv * fv < 0.09) col = mix(col, scheme[2], 0.7);
        }
        const ink = lines[i];
        const o = ((y + oy) * w + x + ox) * 3;
        out.data[o] = col[0] + (black[0] - col[0]) * ink;
        out.data[o + 1] = col[1] + (black[1] - col[1]) * ink;
        out.data[o + 2] = col[2] + (black[2] - col[2]) * ink;
        out.layer[(y + oy) * w + x + ox] = panel.layer[i];
      }
    }
  }
  const gutter = Math.max(2, U * 0.008);
  out.fillRect(lw - gutter / 2, 0, lw + gutter / 2, h, white);
  out.fillRect(0, th - gutter / 2, w, th + gutter / 2, white);
  return out;
}
