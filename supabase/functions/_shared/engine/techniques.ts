// Which technique renders which style: every style id maps to exactly one technique function.
import type { StyleId } from "../vocabulary/styles.ts";
import { abstract } from "./techniques/abstract.ts";
import { lineArt, sketch } from "./techniques/drawing.ts";
import { anime, cartoon, comicBook, popArt } from "./techniques/ink.ts";
import { isometric } from "./techniques/isometric.ts";
import type { Technique } from "./techniques/job.ts";
import { cyberpunk, digitalArt, fantasy, neon, photorealistic, render3d } from "./techniques/light.ts";
import { artNouveau } from "./techniques/nouveau.ts";
import { impressionist, oilPainting, watercolor } from "./techniques/painterly.ts";
import { baroque, gothic, steampunk, vintage } from "./techniques/period.ts";
import { graffiti, nanoBanana, surreal } from "./techniques/playful.ts";
import { minimalist, pixelArt } from "./techniques/reduced.ts";

export const TECHNIQUES: Record<StyleId, Technique> = {
  photorealistic,
  anime,
  "digital-art": digitalArt,
  "oil-painting": oilPainting,
  watercolor,
  "pixel-art": pixelArt,
  "3d-render": render3d,
  "comic-book": comicBook,
  "line-art": lineArt,
  isometric,
  fantasy,
  minimalist,
  cyberpunk,
  steampunk,
  "art-nouveau": artNouveau,
  impressionist,
  "pop-art": popArt,
  graffiti,
  sketch,
  vintage,
  neon,
  gothic,
  baroque,
  surreal,
  abstract,
  cartoon,
  "nano-banana": nanoBanana,
};
