// Plans a picture before anything is drawn: the final motif set (the prompt's, plus the style's
// defaults when the prompt names no scene, never anything banned), the time of day, where the horizon
// and the subjects go (from the reference image when there is one), and the palette.
import type { Rgb } from "./color.ts";
import type { MotifId } from "./motifs.ts";
import { NoiseField } from "./noise.ts";
import { buildPalette, type ScenePalette } from "./palette.ts";
import type { Rng } from "./prng.ts";
import type { ParsedPrompt } from "./prompt.ts";
import type { ReferenceInfo } from "./reference.ts";
import type { StyleDef, TimeOfDay } from "./styles.ts";

export interface Subject {
  motif: MotifId;
  /** Horizontal centre, 0..1 of the width. */
  x: number;
  /** Size multiplier relative to the motif's usual size. */
  scale: number;
}

export interface Scene {
  motifs: ReadonlySet<MotifId>;
  /** Motifs added by the engine (style defaults, implied sun/moon/ground), not named in the prompt. */
  implied: MotifId[];
  time: TimeOfDay;
  /** Horizon as a fraction of the height; 1 means no ground (open space). */
  horizon: number;
  focusX: number;
  /** The light source (sun or moon), as fractions of width and height. */
  light: { x: number; y: number };
  palette: ScenePalette;
  subjects: Subject[];
  colors: readonly string[];
  seed: number;
  noise: NoiseField;
  reference: ReferenceInfo | null;
}

const SETTINGS: MotifId[] = [
  "sea",
  "beach",
  "mountain",
  "hills",
  "city",
  "forest",
  "desert",
  "snow",
  "space",
  "river",
  "castle",
];
const GROUND_SUBJECTS: MotifId[] = [
  "portrait",
  "robot",
  "cat",
  "dog",
  "fox",
  "animal",
  "car",
  "house",
  "fire",
  "banana",
  "lighthouse",
];
/** Subjects that float on water; each brings the sea with it. */
const WATER_SUBJECTS: MotifId[] = ["boat"];
const SLOT_ORDER: MotifId[] = [
  "portrait",
  "robot",
  "lighthouse",
  "castle",
  "house",
  "animal",
  "dog",
  "fox",
  "cat",
  "car",
  "fire",
  "banana",
  "boat",
];

/**
 * How the seed frames a picture whose prompt leaves it open (decision 134): where the horizon sits
 * (as a shift from the scene's usual line), how near the subjects stand, what rises behind a subject
 * the prompt gives no setting, and, when neither the prompt nor the style names one, the time of day.
 */
const HORIZON_SHIFTS = [-0.14, -0.07, 0, 0.07, 0.13];
const SUBJECT_SCALES = [0.8, 1, 1.2];
const FOCUS_XS = [0.34, 0.5, 0.66];
const BACKDROPS: (MotifId | null)[] = [null, "mountain", "forest"];
const OPEN_TIMES: TimeOfDay[] = ["day", "day", "day", "sunset", "sunset", "night"];

export interface PlanInputs {
  parsed: ParsedPrompt;
  style: StyleDef;
  rng: Rng;
  reference: ReferenceInfo | null;
  /** Octaves of the scene's noise texture (the quality's; 5 as designed). */
  noiseOctaves?: number;
}

export function planScene({ parsed, style, rng, reference, noiseOctaves = 5 }: PlanInputs): Scene {
  const banned = new Set(parsed.bannedMotifs);
  const motifs = new Set<MotifId>(parsed.motifs);
  const implied: MotifId[] = [];
  const imply = (m: MotifId) => {
    if (banned.has(m) || motifs.has(m)) return;
    motifs.add(m);
    implied.push(m);
  };
  // The framing draws from its own stream, so the choices above it keep theirs.
  const frame = rng.fork("frame");

  const namesSetting = parsed.motifs.some((m) => SETTINGS.includes(m));
  const namesScene = namesSetting ||
    parsed.motifs.some(
      (m) => GROUND_SUBJECTS.includes(m) || WATER_SUBJECTS.includes(m) || m === "planet" || m === "gears",
    );
  if (!namesScene) style.defaults.forEach(imply);
  if (!namesScene && ![...motifs].some((m) => SETTINGS.includes(m))) {
    imply(rng.pick(["hills", "mountain", "sea"] as MotifId[]));
  }

  if (motifs.has("beach")) imply("sea");
  if (WATER_SUBJECTS.some((m) => motifs.has(m)) || motifs.has("lighthouse")) imply("sea");
  const time = pickTime(motifs, parsed.motifs, style, banned, frame);
  const openSpace = time === "space" &&
    !["mountain", "desert", "snow", "hills", "sea", "city"].some((m) => motifs.has(m as MotifId));
  if (!openSpace && !SETTINGS.some((m) => motifs.has(m) && m !== "space" && m !== "castle" && m !== "river")) {
    imply(motifs.has("snow") ? "snow" : "hills");
  }
  const groundSubjects = GROUND_SUBJECTS.filter((m) => motifs.has(m) && m !== "portrait");
  // Something standing by the water needs a shore to stand on.
  if (motifs.has("sea") && groundSubjects.length > 0 && !motifs.has("city") && !motifs.has("beach")) {
    imply(motifs.has("desert") ? "desert" : motifs.has("snow") ? "snow" : "hills");
  }
  const backdrop = frame.pick(BACKDROPS);
  if (!namesSetting && !openSpace && backdrop && !(backdrop === "forest" && motifs.has("sea"))) imply(backdrop);
  if (time === "night" && !motifs.has("rain")) {
    imply("moon");
    imply("stars");
  }
  if (time === "space") imply("stars");
  if ((time === "day" || time === "sunset") && !motifs.has("rain")) imply("sun");

  let horizon = openSpace ?
    1 :
    motifs.has("portrait") ?
    0.7 :
    motifs.has("sea") && !motifs.has("city") ?
    0.56 :
    motifs.has("city") ?
    0.66 :
    motifs.has("sky") ?
    0.72 :
    0.62;
  const shift = frame.pick(HORIZON_SHIFTS) * (motifs.has("portrait") ? 0.5 : 1);
  if (horizon < 1) horizon = Math.min(0.82, Math.max(0.4, horizon + shift + rng.range(-0.03, 0.03)));
  if (reference?.horizon != null && horizon < 1) horizon = Math.min(0.85, Math.max(0.3, reference.horizon));

  const focusX = reference?.focusX ?? frame.pick(FOCUS_XS) + rng.range(-0.04, 0.04);
  const lightX = focusX > 0.5 ? rng.range(0.14, 0.34) : rng.range(0.66, 0.86);
  const lightY = time === "sunset" ?
    Math.min(horizon, 1) - rng.range(0.05, 0.1) :
    Math.min(horizon, 0.8) * rng.range(0.22, 0.42);

  const subjects = placeSubjects(
    [...SLOT_ORDER].filter((m) => motifs.has(m)),
    focusX,
    frame.pick(SUBJECT_SCALES),
    rng,
  );
  const palette = buildPalette({
    time,
    mood: frame.next(),
    motifs,
    style,
    colors: parsed.colors,
    motifColors: parsed.motifColors as Partial<Record<MotifId, Rgb>>,
    bannedColors: parsed.bannedColors,
    reference,
  });
  return {
    motifs,
    implied,
    time,
    horizon,
    focusX,
    light: { x: lightX, y: lightY },
    palette,
    subjects,
    colors: parsed.colors,
    seed: rng.seed,
    // Extra octaves only add finer lattices after the first five, whose values come first from the stream.
    noise: new NoiseField(rng.fork("noise"), noiseOctaves),
    reference,
  };
}

function pickTime(
  motifs: Set<MotifId>,
  named: MotifId[],
  style: StyleDef,
  banned: Set<MotifId>,
  frame: Rng,
): TimeOfDay {
  if (motifs.has("space") || (motifs.has("planet") && !named.includes("sun"))) return "space";
  const has = (m: MotifId) => named.includes(m);
  if (has("night") || ((has("stars") || has("moon")) && !has("sun") && !has("sunset"))) return "night";
  if (has("sunset")) return "sunset";
  if (has("sun")) return "day";
  const preferred = style.time ?? (motifs.has("moon") ? "night" : frame.pick(OPEN_TIMES));
  if ((preferred === "night" && banned.has("night")) || (preferred === "sunset" && banned.has("sunset"))) return "day";
  return preferred;
}

/** The first subject sits at the focus; each next one where it is farthest from those placed. */
function placeSubjects(list: MotifId[], focusX: number, nearness: number, rng: Rng): Subject[] {
  const placed: Subject[] = [];
  const candidates = [0.16, 0.28, 0.4, 0.5, 0.6, 0.72, 0.84];
  const hasPortrait = list.includes("portrait");
  for (const motif of list) {
    let x = focusX;
    if (placed.length > 0) {
      let best = -1;
      for (const c of candidates) {
        const gap = Math.min(...placed.map((p) => Math.abs(p.x - c))) + rng.range(0, 0.04);
        if (gap > best) {
          best = gap;
          x = c;
        }
      }
    }
    const crowd = list.length > 3 ? 0.8 : 1;
    placed.push({ motif, x, scale: (hasPortrait && motif !== "portrait" ? 0.7 : 1) * crowd * nearness });
  }
  return placed;
}
