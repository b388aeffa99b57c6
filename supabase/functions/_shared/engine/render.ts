// The built-in engine's public surface: a deterministic procedural renderer (not an AI model) that turns
// a prompt, style, size, seed and optional reference image into a PNG of exactly that size, and says
// honestly what it drew. Same inputs give the same bytes: all randomness comes from one seed hashed
// from (seed, style, width, height). The quality (quality.ts) decides how finely the plan is drawn, never
// the plan itself, so one seed gives the same scene at every quality.
import { encodePng } from "../image/png.ts";
import { composeScene } from "./compose.ts";
import type { Canvas } from "./canvas.ts";
import { downsample2, grade, sharpen, toRgbBytes } from "./filters.ts";
import { MOTIF_LABELS, type MotifId } from "./motifs.ts";
import { hashString, Rng } from "./prng.ts";
import { parsePrompt } from "./prompt.ts";
import { type QualityPlan, qualityPlan, SUPERSAMPLED_MAX_PIXELS } from "./quality.ts";
import { analyseReference, GRID, type ReferenceImage } from "./reference.ts";
import { planScene, type Scene } from "./scene.ts";
import { isQuality, type Quality } from "../vocabulary/generation.ts";
import { isStyleId } from "../vocabulary/styles.ts";
import type { ImageRecipe } from "../recipe-metadata/recipe.ts";
import { recipePngChunks } from "../recipe-metadata/png.ts";
import { type StyleDef, STYLES, type TimeOfDay } from "./styles.ts";
import { TECHNIQUES } from "./techniques.ts";

export const ENGINE_ID = "builtin-procedural";
export const ENGINE_LABEL = "Built-in procedural renderer (not an AI model)";

export const MIN_SIDE_PX = 16;
export const MAX_SIDE_PX = 4096;

export interface RenderInput {
  prompt: string;
  negativePrompt?: string;
  style: string;
  width: number;
  height: number;
  seed: number;
  /** How finely to draw (quality.ts); standard when not given. */
  quality?: Quality;
  reference?: ReferenceImage | null;
  /** The recipe renderPng writes into the PNG (recipe-metadata/png.ts); none when not given. */
  recipe?: ImageRecipe | null;
}

export interface RenderDescription {
  engine: typeof ENGINE_ID;
  label: typeof ENGINE_LABEL;
  style: { id: string; label: string };
  width: number;
  height: number;
  seed: number;
  quality: Quality;
  /** Everything drawn, in the order the prompt named it, then what the engine added. */
  motifs: MotifId[];
  /** Motifs the prompt named. */
  named: MotifId[];
  /** Motifs added by the engine: style defaults, implied sun/moon/stars/ground. */
  implied: MotifId[];
  /** Motifs the negative prompt (or a "no ..." in the prompt) kept out. */
  removed: MotifId[];
  colors: string[];
  removedColors: string[];
  timeOfDay: TimeOfDay;
  usedReference: boolean;
  /** One honest sentence for people: what this picture is and how it was made. */
  caption: string;
}

interface Plan {
  input: RenderInput;
  style: StyleDef;
  quality: QualityPlan;
  scene: Scene;
  named: MotifId[];
  removed: MotifId[];
  removedColors: string[];
}

function plan(input: RenderInput): Plan {
  if (!isStyleId(input.style)) throw new RangeError(`unknown style "${input.style}"`);
  for (const side of [input.width, input.height]) {
    if (!Number.isInteger(side) || side < MIN_SIDE_PX || side > MAX_SIDE_PX) {
      throw new RangeError(
        `image sides must be integers from ${MIN_SIDE_PX} to ${MAX_SIDE_PX} px, got ${input.width}x${input.height}`,
      );
    }
  }
  if (!Number.isFinite(input.seed)) throw new RangeError(`seed must be a finite number, got ${input.seed}`);
  const q = input.quality ?? "standard";
  if (!isQuality(q)) throw new RangeError(`unknown quality "${q}"`);
  const quality = qualityPlan(q, input.style);
  const style = STYLES[input.style];
  const parsed = parsePrompt(input.prompt ?? "", input.negativePrompt ?? "");
  const reference = input.reference ? analyseReference(input.reference) : null;
  const rng = new Rng(hashString(`${Math.trunc(input.seed)}|${style.id}|${input.width}x${input.height}`));
  const scene = planScene({ parsed, style, rng, reference, noiseOctaves: quality.noiseOctaves });
  return {
    input,
    style,
    quality,
    scene,
    named: parsed.motifs,
    removed: parsed.bannedMotifs,
    removedColors: parsed.bannedColors,
  };
}

export function describeRender(input: RenderInput): RenderDescription {
  return describe(plan(input));
}

function describe(pl: Plan): RenderDescription {
  const { input, style, scene } = pl;
  const motifs = [...pl.named.filter((m) => scene.motifs.has(m)), ...scene.implied];
  const what = motifs.length > 0 ? motifs.map((m) => MOTIF_LABELS[m]).join(", ") : "an abstract composition";
  const extras = [
    scene.colors.length > 0 ? `colours steered by ${scene.colors.join(", ")}` : "",
    pl.removed.length > 0 ? `leaving out ${pl.removed.map((m) => MOTIF_LABELS[m]).join(", ")}` : "",
    scene.reference ? "palette and layout taken from the reference image" : "",
  ].filter(Boolean);
  return {
    engine: ENGINE_ID,
    label: ENGINE_LABEL,
    style: { id: style.id, label: style.label },
    width: input.width,
    height: input.height,
    seed: Math.trunc(input.seed),
    quality: pl.quality.quality,
    motifs,
    named: pl.named,
    implied: scene.implied,
    removed: pl.removed,
    colors: [...scene.colors],
    removedColors: pl.removedColors,
    timeOfDay: scene.time,
    usedReference: scene.reference !== null,
    caption: `${style.label} picture by the ${ENGINE_LABEL.charAt(0).toLowerCase()}${ENGINE_LABEL.slice(1)}: ${what}` +
      `${extras.length > 0 ? `; ${extras.join("; ")}` : ""}.`,
  };
}

/** The finished pixels as 8-bit RGB, exactly width x height. */
export function renderRgb(input: RenderInput): Uint8Array {
  return renderPlan(plan(input));
}

function renderPlan(pl: Plan): Uint8Array {
  const { input, style, scene, quality } = pl;
  const technique = TECHNIQUES[style.id];
  const canvas = technique({
    width: input.width,
    height: input.height,
    detail: quality.detail,
    scene,
    style,
    rng: new Rng(scene.seed).fork(`technique:${style.id}`),
    compose: (w, h) => {
      // Supersampling draws the scene at twice the size (motifs are sized in fractions of the picture)
      // and averages each 2x2 block: edges, thin lines and point-sampled textures get four samples a
      // pixel. The technique's own passes then run at the size it asked for.
      const k = quality.supersample === 2 && w * h * 4 <= SUPERSAMPLED_MAX_PIXELS ? 2 : 1;
      const c = k === 2 ? downsample2(composeScene(scene, w * 2, h * 2)) : composeScene(scene, w, h);
      if (scene.reference) applyLayout(c, scene.reference.light);
      grade(c, style.grade);
      return c;
    },
  });
  if (canvas.width !== input.width || canvas.height !== input.height) {
    throw new Error(`technique for ${style.id} returned ${canvas.width}x${canvas.height}`);
  }
  if (quality.clarity > 0) sharpen(canvas, quality.clarity);
  return toRgbBytes(canvas);
}

export async function renderPng(input: RenderInput): Promise<Uint8Array> {
  const pl = plan(input);
  const rgb = renderPlan(pl);
  const caption = describe(pl).caption;
  return await encodePng(rgb, input.width, input.height, {
    channels: 3,
    text: { Software: ENGINE_LABEL, Description: caption },
    chunks: input.recipe ? recipePngChunks(input.recipe) : [],
  });
}

/** The reference's brightness map, upscaled smoothly, relights the picture: its layout shows through. */
function applyLayout(c: Canvas, light: Float32Array): void {
  const { width: w, height: h, data } = c;
  for (let y = 0; y < h; y++) {
    const gy = Math.min(GRID - 1.001, Math.max(0, ((y + 0.5) / h) * GRID - 0.5));
    const y0 = Math.floor(gy),
      ty = gy - y0;
    for (let x = 0; x < w; x++) {
      const gx = Math.min(GRID - 1.001, Math.max(0, ((x + 0.5) / w) * GRID - 0.5));
      const x0 = Math.floor(gx),
        tx = gx - x0;
      const a = light[y0 * GRID + x0],
        b = light[y0 * GRID + x0 + 1],
        cc = light[(y0 + 1) * GRID + x0],
        d = light[(y0 + 1) * GRID + x0 + 1];
      const v = (a + (b - a) * tx) * (1 - ty) + (cc + (d - cc) * tx) * ty;
      const f = 0.6 + 0.8 * v,
        k = (y * w + x) * 3;
      data[k] *= f;
      data[k + 1] *= f;
      data[k + 2] *= f;
    }
  }
}
