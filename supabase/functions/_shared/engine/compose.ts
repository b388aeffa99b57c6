// Draws a planned scene back to front: sky and what is in it, distant land, the ground, water,
// buildings, trees, the subjects (farthest first), flowers, then weather over everything.
import { Canvas } from "./canvas.ts";
import { drawAnimal, drawCat, drawDog, drawFox } from "./draw/animals.ts";
import { drawCastle, drawCity, drawHouse, drawLighthouse, reflectCity } from "./draw/buildings.ts";
import { type Draw, drawContext } from "./draw/context.ts";
import { drawCar, drawPortrait, drawRobot } from "./draw/figures.ts";
import { drawBeach, drawDesert, drawHills, drawMountains } from "./draw/land.ts";
import { drawFire, drawFlowers, drawForest } from "./draw/nature.ts";
import { drawBanana, drawGears } from "./draw/objects.ts";
import {
  drawBirds,
  drawClouds,
  drawMoon,
  drawNebula,
  drawPlanet,
  drawRainbow,
  drawSky,
  drawStars,
  drawSun,
} from "./draw/sky.ts";
import { drawBoat, drawFish, drawRiver, drawSea } from "./draw/water.ts";
import { drawFog, drawRain, drawSnowfall } from "./draw/weather.ts";
import type { MotifId } from "./motifs.ts";
import type { Scene } from "./scene.ts";

type SubjectDrawer = (d: Draw, x01: number, scale: number) => void;

const SUBJECT_DRAWERS: Partial<Record<MotifId, SubjectDrawer>> = {
  castle: drawCastle,
  lighthouse: drawLighthouse,
  house: drawHouse,
  animal: drawAnimal,
  dog: drawDog,
  fox: drawFox,
  cat: drawCat,
  car: drawCar,
  robot: drawRobot,
  fire: drawFire,
  banana: drawBanana,
  portrait: drawPortrait,
};

/** Farthest subjects first so nearer ones overlap them. */
const SUBJECT_DEPTH: MotifId[] = [
  "lighthouse",
  "castle",
  "house",
  "animal",
  "car",
  "dog",
  "fox",
  "cat",
  "fire",
  "robot",
  "banana",
  "portrait",
];

export function composeScene(scene: Scene, width: number, height: number): Canvas {
  const c = new Canvas(width, height);
  const has = (m: MotifId) => scene.motifs.has(m);
  const at = (m: string) => drawContext(c, scene, m);
  const space = scene.time === "space";

  drawSky(at("sky"));
  if (space) drawNebula(at("nebula"));
  if (has("stars")) drawStars(at("stars"));
  if (has("planet") || (space && !has("moon"))) drawPlanet(at("planet"));
  if (has("sun") && scene.time !== "night") drawSun(at("sun"));
  if (has("moon")) drawMoon(at("moon"));
  if (has("rainbow")) drawRainbow(at("rainbow"));
  if (!space && (has("sky") || has("rain") || scene.time === "day")) drawClouds(at("clouds"));

  if (scene.horizon < 1) {
    if (has("mountain")) drawMountains(at("mountain"));
    if (has("city")) drawCity(at("city"));
    // With water in the picture, land becomes a foreground bank drawn over the sea.
    const water = has("sea");
    const land = has("hills") || has("snow") || has("forest") || has("river");
    if (!water && has("desert")) drawDesert(at("desert"), false);
    else if (!water && land) drawHills(at("hills"), false);
    if (water) drawSea(at("sea"));
    if (water && has("desert")) drawDesert(at("desert"), true);
    else if (water && land) drawHills(at("hills"), true);
    if (has("city")) reflectCity(at("city-reflection"));
    if (has("beach")) drawBeach(at("beach"));
    if (has("river") && !water) drawRiver(at("river"));
    if (has("forest")) drawForest(at("forest"));
    const boat = scene.subjects.find((sub) => sub.motif === "boat");
    if (boat && has("sea")) drawBoat(at("boat"), boat.x, boat.scale);
  }
  if (has("fish")) drawFish(at("fish"));
  if (has("gears")) drawGears(at("gears"));

  const subjects = [...scene.subjects].sort((a, b) => SUBJECT_DEPTH.indexOf(a.motif) - SUBJECT_DEPTH.indexOf(b.motif));
  for (const sub of subjects) SUBJECT_DRAWERS[sub.motif]?.(at(sub.motif), sub.x, sub.scale);

  if (has("flower") && !has("portrait")) drawFlowers(at("flower"));
  if (has("bird")) drawBirds(at("bird"));
  if (has("fog")) drawFog(at("fog"));
  if (has("rain")) drawRain(at("rain"));
  if (has("snow")) drawSnowfall(at("snowfall"));
  return c;
}
