// Draws a line of text with one of four effects on a 2D canvas: outline, neon glow, gradient fill and a
// stacked 3D shadow. Pure drawing: the page owns the canvas and the download.

export const TEXT_EFFECTS = ["outline", "neon", "gradient", "shadow3d"] as const;
export type TextEffect = (typeof TEXT_EFFECTS)[number];

export const EFFECT_LABELS: Record<TextEffect, string> = {
  outline: "Outline",
  neon: "Neon glow",
  gradient: "Gradient",
  shadow3d: "3D shadow",
};

export type Background = "transparent" | "dark" | "light";

export type TextEffectOptions = {
  text: string;
  effect: TextEffect;
  primary: string;
  secondary: string;
  background: Background;
  width: number;
  height: number;
};

export const TEXT_MAX_CHARS = 40;
const FONT_FAMILY = 'ui-sans-serif, system-ui, "Segoe UI", Roboto, Arial, sans-serif';
const BACKGROUNDS: Record<Exclude<Background, "transparent">, string> = { dark: "#0f0f1a", light: "#f7f7fb" };

/** The largest bold font size (px) at which `text` fits the canvas with a margin. */
export function fitFontSize(
  ctx: Pick<CanvasRenderingContext2D, "measureText" | "font">,
  text: string,
  width: number,
  height: number,
): number {
  let size = Math.floor(height * 0.55);
  while (size > 12) {
    ctx.font = `900 ${size}px ${FONT_FAMILY}`;
    if (ctx.measureText(text).width <= width * 0.86) break;
    size -= 4;
  }
  return size;
}

export function drawTextEffect(ctx: CanvasRenderingContext2D, o: TextEffectOptions): void {
  const { width: w, height: h } = o;
  const text = o.text.trim().slice(0, TEXT_MAX_CHARS) || "Your text";
  ctx.save();
  ctx.clearRect(0, 0, w, h);
  if (o.background !== "transparent") {
    ctx.fillStyle = BACKGROUNDS[o.background];
    ctx.fillRect(0, 0, w, h);
  }
  const size = fitFontSize(ctx, text, w, h);
  ctx.font = `900 ${size}px ${FONT_FAMILY}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineJoin = "round";
  const x = w / 2;
  const y = h / 2;

  switch (o.effect) {
    case "outline": {
      ctx.lineWidth = Math.max(3, size / 14);
      ctx.strokeStyle = o.primary;
      ctx.strokeText(text, x, y);
      break;
    }
    case "neon": {
      // Several passes of glow, wide to narrow, then a pale core like a lit tube.
      for (const [blur, alpha] of [
        [size * 0.6, 0.5],
        [size * 0.3, 0.7],
        [size * 0.12, 0.9],
      ] as const) {
        ctx.shadowColor = o.primary;
        ctx.shadowBlur = blur;
        ctx.globalAlpha = alpha;
        ctx.lineWidth = Math.max(2, size / 18);
        ctx.strokeStyle = o.primary;
        ctx.strokeText(text, x, y);
      }
      ctx.globalAlpha = 1;
      ctx.shadowBlur = size * 0.05;
      ctx.lineWidth = Math.max(1, size / 40);
      ctx.strokeStyle = "#ffffff";
      ctx.strokeText(text, x, y);
      break;
    }
    case "gradient": {
      const half = ctx.measureText(text).width / 2;
      const gradient = ctx.createLinearGradient(x - half, y - size / 2, x + half, y + size / 2);
      gradient.addColorStop(0, o.primary);
      gradient.addColorStop(1, o.secondary);
      ctx.fillStyle = gradient;
      ctx.fillText(text, x, y);
      break;
    }
    case "shadow3d": {
      const depth = Math.max(4, Math.round(size / 10));
      ctx.fillStyle = o.secondary;
      for (let i = depth; i > 0; i--) ctx.fillText(text, x + i, y + i);
      ctx.fillStyle = o.primary;
      ctx.fillText(text, x, y);
      break;
    }
  }
  ctx.restore();
}
