// How the built-in engine draws each of the 27 styles (docs/spec.md §3). The ids, labels, descriptions and
// badges are the vocabulary's (vocabulary/styles.ts); this adds, per style, a palette (tones the scene
// colours are pulled toward), a colour grade, what to draw when the prompt names nothing drawable and,
// in techniques.ts, a technique.
import { STYLE_BY_ID, STYLE_IDS, type StyleId, type StyleInfo } from "../vocabulary/styles.ts";
import { hex, type Rgb } from "./color.ts";
import type { Grade } from "./filters.ts";
import type { MotifId } from "./motifs.ts";

export type TimeOfDay = "day" | "sunset" | "night" | "space";

interface Look {
  /** The style's swatches; scene colours move toward the nearest one by `toneStrength` (0..1). */
  tones: readonly Rgb[];
  toneStrength: number;
  grade: Grade;
  /** Time of day when the prompt names none. */
  time?: TimeOfDay;
  /** Drawn when the prompt names no scene of its own. */
  defaults: readonly MotifId[];
}

export interface StyleDef extends StyleInfo, Look {}

const tones = (...values: string[]): Rgb[] => values.map(hex);

const LOOKS: Readonly<Record<StyleId, Look>> = {
  photorealistic: {
    tones: tones("#3a6ea5", "#9cc3e6", "#e8d5b0", "#5b7f3a", "#3d4a2f", "#8a6e4b", "#f2efe6"),
    toneStrength: 0,
    grade: { saturation: 1.05, contrast: 1.04 },
    defaults: ["mountain", "sea", "sun", "sky"],
  },
  anime: {
    tones: tones("#3d8fe8", "#9fd6ff", "#ffe2ee", "#7ed957", "#2f7d4a", "#ff8fb1", "#fff3c4", "#1b2a4a"),
    toneStrength: 0.25,
    grade: { saturation: 1.25, contrast: 1.05, brightness: 6 },
    defaults: ["hills", "sky", "sun", "house"],
  },
  "digital-art": {
    tones: tones("#2d1b69", "#6a2cff", "#00d4ff", "#ff3cac", "#ffd166", "#0b0f2e"),
    toneStrength: 0.4,
    grade: { saturation: 1.35, contrast: 1.12 },
    time: "sunset",
    defaults: ["mountain", "sea", "sun"],
  },
  "oil-painting": {
    tones: tones("#2e3b4e", "#6b8fb3", "#c9a66b", "#8c4a2f", "#4f6b3a", "#e8d8b0", "#1f1a14"),
    toneStrength: 0.3,
    grade: { saturation: 1.05, contrast: 1.12, tint: hex("#ffe2b8"), tintAmount: 0.12 },
    defaults: ["hills", "forest", "river", "sky"],
  },
  watercolor: {
    tones: tones("#6fa8dc", "#a9cce3", "#f5cba7", "#a3c99a", "#d7a9c4", "#f7f3e8"),
    toneStrength: 0.25,
    grade: { saturation: 1.2, brightness: 6 },
    defaults: ["mountain", "sea", "sky", "boat"],
  },
  "pixel-art": {
    tones: tones(
      "#000000",
      "#1d2b53",
      "#7e2553",
      "#008751",
      "#ab5236",
      "#5f574f",
      "#c2c3c7",
      "#fff1e8",
      "#ff004d",
      "#ffa300",
      "#ffec27",
      "#00e436",
      "#29adff",
      "#83769c",
      "#ff77a8",
      "#ffccaa",
    ),
    toneStrength: 0.15,
    grade: { saturation: 1.2 },
    defaults: ["mountain", "forest", "sun", "sky"],
  },
  "3d-render": {
    tones: tones("#5b8def", "#a7c5ff", "#f2f2f7", "#ff7a59", "#7ad3a8", "#c9c9d6"),
    toneStrength: 0.35,
    grade: { saturation: 1.1, contrast: 1.02 },
    defaults: ["robot", "planet", "sky"],
  },
  "comic-book": {
    tones: tones("#e63946", "#f1c40f", "#1d70b8", "#2a9d8f", "#f4a261", "#fdf0d5", "#111111"),
    toneStrength: 0.45,
    grade: { saturation: 1.3, contrast: 1.15 },
    defaults: ["city", "portrait", "sky"],
  },
  "line-art": {
    tones: tones("#111111", "#f8f6f0"),
    toneStrength: 0,
    grade: {},
    defaults: ["mountain", "forest", "house", "sun"],
  },
  isometric: {
    tones: tones("#8ecae6", "#219ebc", "#ffb703", "#fb8500", "#90be6d", "#f1faee", "#577590"),
    toneStrength: 0.4,
    grade: { saturation: 1.1 },
    defaults: ["city", "forest", "sea"],
  },
  fantasy: {
    tones: tones("#2b1055", "#7597de", "#d16ba5", "#86a8e7", "#5ffbf1", "#ffd6a5", "#1a0b3b"),
    toneStrength: 0.45,
    grade: { saturation: 1.2, contrast: 1.05 },
    time: "sunset",
    defaults: ["castle", "mountain", "fog", "moon"],
  },
  minimalist: {
    tones: tones("#f4efe6", "#e8c07d", "#d1495b", "#2e4057", "#8fb9a8"),
    toneStrength: 0.5,
    grade: {},
    defaults: ["mountain", "sun"],
  },
  cyberpunk: {
    tones: tones("#0d0221", "#261447", "#ff2a6d", "#05d9e8", "#d1f7ff", "#650d89", "#f9c80e"),
    toneStrength: 0.6,
    grade: { saturation: 1.3, contrast: 1.1 },
    time: "night",
    defaults: ["city", "rain"],
  },
  steampunk: {
    tones: tones("#3b2a1a", "#8b5a2b", "#c8963e", "#e1c699", "#5c4b3b", "#b87333", "#2f3b2f"),
    toneStrength: 0.6,
    grade: { saturation: 0.85, contrast: 1.08, tint: hex("#e0b070"), tintAmount: 0.25 },
    defaults: ["gears", "city", "fog"],
  },
  "art-nouveau": {
    tones: tones("#e9dcc0", "#c9a227", "#6b8e5a", "#a3573a", "#3e5c58", "#d9b7a0", "#3b2f2a"),
    toneStrength: 0.55,
    grade: { saturation: 0.9 },
    defaults: ["portrait", "flower"],
  },
  impressionist: {
    tones: tones("#7fa7d9", "#f2d98b", "#e8a0a8", "#8fbf7f", "#f7efe0", "#c9b3e0", "#5f8a6b"),
    toneStrength: 0.35,
    grade: { saturation: 1.15, brightness: 10 },
    defaults: ["hills", "flower", "river", "sky"],
  },
  "pop-art": {
    tones: tones("#ff1f8e", "#ffe600", "#00b2ff", "#ff5a00", "#00d16c", "#111111", "#ffffff"),
    toneStrength: 0.7,
    grade: { saturation: 1.5, contrast: 1.2 },
    defaults: ["portrait"],
  },
  graffiti: {
    tones: tones("#ff3b3b", "#ffcc00", "#3ddc97", "#2d9cdb", "#9b51e0", "#ff7ac6", "#1c1c1c"),
    toneStrength: 0.5,
    grade: { saturation: 1.4, contrast: 1.1 },
    defaults: ["city", "sun"],
  },
  sketch: {
    tones: tones("#2b2b2b", "#f2efe7"),
    toneStrength: 0,
    grade: {},
    defaults: ["house", "forest", "hills"],
  },
  vintage: {
    tones: tones("#704214", "#c19a6b", "#e8d3a9", "#5e4b3c", "#a67b5b"),
    toneStrength: 0.3,
    grade: { saturation: 0.35, contrast: 0.9, brightness: 8, tint: hex("#f0c890"), tintAmount: 0.55 },
    defaults: ["car", "city", "sun"],
  },
  neon: {
    tones: tones("#ff00e6", "#00f0ff", "#faff00", "#39ff14", "#ff3131", "#050510"),
    toneStrength: 0.5,
    grade: {},
    time: "night",
    defaults: ["city", "moon", "sea"],
  },
  gothic: {
    tones: tones("#0b0a12", "#2a1b3d", "#5a1e2d", "#8c8c9e", "#3d3d55", "#a30d2d", "#c7c7d9"),
    toneStrength: 0.6,
    grade: { saturation: 0.7, contrast: 1.2, brightness: -10 },
    time: "night",
    defaults: ["castle", "moon", "fog", "forest"],
  },
  baroque: {
    tones: tones("#1a0f08", "#5c2e12", "#a0522d", "#d4af37", "#f3e5ab", "#7b1e1e", "#2c3e2d"),
    toneStrength: 0.55,
    grade: { saturation: 1.05, contrast: 1.25, tint: hex("#ffcf8a"), tintAmount: 0.15 },
    defaults: ["portrait", "flower"],
  },
  surreal: {
    tones: tones("#f6bd60", "#f28482", "#84a59d", "#5e60ce", "#f7ede2", "#48bfe3"),
    toneStrength: 0.45,
    grade: { saturation: 1.15 },
    defaults: ["desert", "fish", "moon", "sky"],
  },
  abstract: {
    tones: tones("#e63946", "#f1faee", "#a8dadc", "#457b9d", "#1d3557", "#ffb703"),
    toneStrength: 0.5,
    grade: {},
    defaults: ["sun", "sea"],
  },
  cartoon: {
    tones: tones("#4cc9f0", "#80ed99", "#ffd60a", "#ff595e", "#8ac926", "#ffffff", "#1b1b1b"),
    toneStrength: 0.4,
    grade: { saturation: 1.3, brightness: 8 },
    defaults: ["hills", "house", "sun", "dog"],
  },
  "nano-banana": {
    tones: tones("#ffe135", "#fff3b0", "#ffb703", "#8ecae6", "#fb8500", "#3a5a40", "#ffd6e0"),
    toneStrength: 0.55,
    grade: { saturation: 1.2, brightness: 8 },
    defaults: ["banana", "sun", "hills"],
  },
};

export const STYLES: Readonly<Record<StyleId, StyleDef>> = Object.fromEntries(
  STYLE_IDS.map((id) => [id, { ...STYLE_BY_ID[id], ...LOOKS[id] }]),
) as Record<StyleId, StyleDef>;
