// The colours a scene is drawn with, by role (sky, water, foliage, skin, ...). Built in layers, each
// able to override the last: a daylight base, the time of day, the setting (snow, desert, rain), the
// style's tones, the prompt's colour words, the reference image's palette, and last the negative
// prompt's colours, which are drained from every role they would have tinted.
import { adjust, hex, hueDistance, luma, mix, type Rgb, toHsl } from "./color.ts";
import { COLOR_WORDS, type MotifId } from "./motifs.ts";
import type { ReferenceInfo } from "./reference.ts";
import type { StyleDef, TimeOfDay } from "./styles.ts";

const DAY = {
  skyTop: "#3f7fd0",
  skyMid: "#7fb2e8",
  skyBottom: "#d2e8f7",
  sun: "#fff2c0",
  moon: "#f2f0dc",
  star: "#ffffff",
  cloud: "#ffffff",
  cloudShade: "#c2d0e2",
  farMountain: "#8fa7c4",
  mountain: "#6f7d8c",
  mountainShade: "#3f4a5a",
  snow: "#f5f8fc",
  ground: "#6fa04a",
  groundDark: "#3f6b2c",
  grass: "#8cc152",
  sand: "#e6cf98",
  rock: "#8a8178",
  water: "#2f7fb5",
  waterDeep: "#1a4f7a",
  waterLight: "#a9d4ef",
  foliage: "#3f8a3a",
  foliageDark: "#24542a",
  trunk: "#6b4a2e",
  wall: "#e8dcc8",
  wallShade: "#b5a58e",
  roof: "#b5533c",
  window: "#9fc7e6",
  windowLit: "#ffd27a",
  door: "#6b3e26",
  skin: "#f1c7a3",
  skinShade: "#d39a78",
  hair: "#4a2f22",
  cloth: "#3c6fb0",
  clothShade: "#284c7c",
  metal: "#b8c2cc",
  metalDark: "#5d6873",
  glow: "#5ff0ff",
  fur: "#c98a4b",
  furShade: "#8a5a2e",
  flower: "#e8466a",
  flower2: "#f6c343",
  flowerCentre: "#f4d03f",
  fire: "#ff6a14",
  fireCore: "#ffe27a",
  accent: "#e8505b",
  accent2: "#f9d56e",
  ink: "#1b1b22",
  planet: "#d9a066",
  banana: "#ffd92e",
} as const;

export type Role = keyof typeof DAY;
export type ScenePalette = Record<Role, Rgb>;

const SKY_ROLES: Role[] = ["skyTop", "skyMid", "skyBottom"];
const LAND_ROLES: Role[] = [
  "ground",
  "groundDark",
  "grass",
  "foliage",
  "foliageDark",
  "mountain",
  "farMountain",
  "sand",
];
const WATER_ROLES: Role[] = ["water", "waterDeep", "waterLight"];
/** Roles that emit light and keep their colour at night. */
const LIT_ROLES = new Set<Role>(["windowLit", "glow", "fire", "fireCore", "moon", "star", "sun"]);

const TIME_SKIES: Record<Exclude<TimeOfDay, "day">, Partial<Record<Role, string>>> = {
  sunset: {
    skyTop: "#2a2d6b",
    skyMid: "#b8508a",
    skyBottom: "#ffb35c",
    sun: "#ffe0a8",
    cloud: "#ffb38a",
    cloudShade: "#8a4a7a",
    waterLight: "#ffb38a",
    farMountain: "#8a6a9a",
    window: "#ffb38a",
  },
  night: {
    skyTop: "#040716",
    skyMid: "#0d1838",
    skyBottom: "#24345f",
    cloud: "#3a4566",
    cloudShade: "#1c2238",
    waterLight: "#5a6f9a",
    farMountain: "#1f2b4a",
    snow: "#b4c0de",
  },
  space: {
    skyTop: "#02030a",
    skyMid: "#090a22",
    skyBottom: "#171236",
    cloud: "#3a2f66",
    cloudShade: "#1c1838",
  },
};

/**
 * The seed's light and season (decision 134): one of these per time of day tints the base palette
 * before the setting, the style and the prompt's colours have their say, so they still win. The first
 * of each list leaves the palette as it is.
 */
const MOODS: Record<TimeOfDay, ReadonlyArray<Partial<Record<Role, readonly [string, number]>>>> = {
  day: [
    {},
    // A warm morning: a peach horizon and sunlit, yellower grass.
    { skyBottom: ["#f7d9b0", 0.6], skyMid: ["#b9c9e0", 0.35], grass: ["#c2c25a", 0.35], ground: ["#9aa04a", 0.3] },
    // Deep summer: a saturated sky and lush greens.
    { skyTop: ["#1c4fb0", 0.6], skyMid: ["#4f95e0", 0.45], grass: ["#5fb83a", 0.4], foliage: ["#2f7a2a", 0.3] },
    // Autumn: rust foliage and straw fields under a paler sky.
    {
      foliage: ["#c0602a", 0.65],
      foliageDark: ["#6e3320", 0.5],
      grass: ["#c4a24a", 0.55],
      ground: ["#a4883e", 0.5],
      groundDark: ["#6a5230", 0.4],
      skyBottom: ["#f0e6d0", 0.4],
    },
    // Overcast: a soft grey sky and muted land.
    {
      skyTop: ["#7d8c9e", 0.6],
      skyMid: ["#a9b4c0", 0.6],
      skyBottom: ["#d4d8dc", 0.5],
      cloud: ["#e4e8ec", 0.4],
      ground: ["#6a8a5a", 0.3],
      water: ["#4a6a80", 0.35],
    },
  ],
  sunset: [
    {},
    // Golden hour: amber instead of rose.
    { skyTop: ["#4a4a86", 0.5], skyMid: ["#e0893a", 0.7], skyBottom: ["#ffd27a", 0.6], cloud: ["#ffc56a", 0.5] },
    // A red sky.
    { skyTop: ["#3a1a4a", 0.5], skyMid: ["#c8383a", 0.65], skyBottom: ["#ff8a4a", 0.55], cloud: ["#e86a5a", 0.5] },
  ],
  night: [
    {},
    // A teal night.
    { skyTop: ["#021418", 0.7], skyMid: ["#0b3440", 0.7], skyBottom: ["#1f5560", 0.6] },
    // A violet night.
    { skyTop: ["#0a0420", 0.7], skyMid: ["#26134f", 0.7], skyBottom: ["#4a2f6e", 0.6] },
  ],
  space: [{}, { skyMid: ["#1a0a30", 0.6], cloud: ["#5a2f6e", 0.5] }, {
    skyMid: ["#061a2a", 0.6],
    cloud: ["#1f5a6e", 0.5],
  }],
};

/** Roles each motif owns, for colour words bound to it ("red car" tints the car's roles). */
const MOTIF_ROLES: Partial<Record<MotifId, Role[]>> = {
  sky: SKY_ROLES,
  sea: WATER_ROLES,
  river: WATER_ROLES,
  beach: ["sand"],
  mountain: ["mountain", "farMountain", "mountainShade"],
  hills: ["ground", "grass", "groundDark"],
  city: ["wall", "wallShade", "windowLit"],
  forest: ["foliage", "foliageDark"],
  portrait: ["hair", "cloth", "clothShade"],
  cat: ["fur", "furShade"],
  dog: ["fur", "furShade"],
  fox: ["fur", "furShade"],
  animal: ["fur", "furShade"],
  bird: ["ink"],
  fish: ["accent2"],
  flower: ["flower", "flower2"],
  planet: ["planet"],
  desert: ["sand", "ground"],
  snow: ["snow"],
  fire: ["fire"],
  castle: ["wall", "wallShade", "roof"],
  robot: ["metal", "metalDark", "glow"],
  car: ["accent"],
  house: ["wall", "roof"],
  moon: ["moon"],
  sun: ["sun"],
  boat: ["accent"],
  banana: ["banana"],
  gears: ["metal", "accent2"],
  space: ["cloud", "cloudShade"],
  stars: ["star"],
};

export interface PaletteInputs {
  time: TimeOfDay;
  /** The seed's pick among the time of day's moods, 0..1 (0 for the plain palette). */
  mood?: number;
  motifs: ReadonlySet<MotifId>;
  style: StyleDef;
  colors: readonly string[];
  motifColors: Partial<Record<MotifId, Rgb>>;
  bannedColors: readonly string[];
  reference: ReferenceInfo | null;
}

export function buildPalette(p: PaletteInputs): ScenePalette {
  const pal = Object.fromEntries(Object.entries(DAY).map(([k, v]) => [k, hex(v)])) as ScenePalette;
  const roles = Object.keys(pal) as Role[];
  const set = (role: Role, c: Rgb) => (pal[role] = c);
  const tint = (list: readonly Role[], c: Rgb, t: number) => list.forEach((r) => set(r, mix(pal[r], c, t)));

  if (p.time !== "day") {
    if (p.time !== "sunset") {
      tint(
        roles.filter((r) => !LIT_ROLES.has(r) && !SKY_ROLES.includes(r)),
        hex("#0a1030"),
        0.66,
      );
    } else {
      tint(
        roles.filter((r) => !LIT_ROLES.has(r) && !SKY_ROLES.includes(r)),
        hex("#7a3f5a"),
        0.28,
      );
    }
    for (const [role, value] of Object.entries(TIME_SKIES[p.time])) set(role as Role, hex(value!));
  }
  const moods = MOODS[p.time];
  const mood = moods[Math.min(moods.length - 1, Math.floor((p.mood ?? 0) * moods.length))];
  for (const [role, [value, t]] of Object.entries(mood) as [Role, readonly [string, number]][]) {
    set(role, mix(pal[role], hex(value), t));
  }
  if (p.motifs.has("snow")) {
    const snowy = p.time === "day" || p.time === "sunset" ? 1 : 0.6;
    tint(["ground", "grass", "sand"], hex("#eef3f8"), 0.9 * snowy);
    tint(["groundDark"], hex("#b9c8da"), 0.85 * snowy);
    tint(["foliage", "foliageDark"], hex("#2f5a4a"), 0.4);
    tint(["skyBottom", "skyMid"], hex("#e6edf5"), 0.35 * snowy);
  }
  if (p.motifs.has("desert")) {
    tint(["ground", "grass"], pal.sand, 0.9);
    tint(["groundDark"], hex("#b98a52"), 0.7);
    tint(["skyBottom"], hex("#f6e3b8"), p.time === "day" ? 0.5 : 0.15);
  }
  if (p.motifs.has("rain")) {
    tint([...SKY_ROLES, "cloud", "cloudShade"], hex("#5f6977"), 0.6);
    roles.forEach((r) => !LIT_ROLES.has(r) && set(r, adjust(pal[r], 0.75)));
  }

  const tones = p.style.tones;
  if (p.style.toneStrength > 0) {
    for (const r of roles) {
      let best = tones[0],
        bestD = Infinity;
      for (const t of tones) {
        const d = (t[0] - pal[r][0]) ** 2 * 0.3 + (t[1] - pal[r][1]) ** 2 * 0.59 + (t[2] - pal[r][2]) ** 2 * 0.11;
        if (d < bestD) {
          bestD = d;
          best = t;
        }
      }
      set(r, mix(pal[r], best, p.style.toneStrength));
    }
  }

  const words = p.colors.map((c) => COLOR_WORDS[c]);
  const bound = new Set(Object.values(p.motifColors));
  const free = words.filter((c) => !bound.has(c));
  if (free.length > 0) {
    const primary = free[0],
      secondary = free[1] ?? free[0];
    tint(SKY_ROLES, primary, 0.5);
    tint(["cloudShade"], primary, 0.4);
    tint(WATER_ROLES, primary, 0.4);
    tint(LAND_ROLES, secondary, 0.35);
    tint(["wall", "roof", "fur", "metal", "planet"], secondary, 0.35);
    for (const r of ["accent", "flower", "cloth", "clothShade"] as Role[]) {
      set(r, mix(pal[r], primary, r === "clothShade" ? 0.6 : 0.9));
    }
    set("accent2", mix(pal.accent2, secondary, 0.9));
    set("flower2", mix(pal.flower2, secondary, 0.8));
  }
  for (const [motif, color] of Object.entries(p.motifColors) as [MotifId, Rgb][]) {
    tint(MOTIF_ROLES[motif] ?? ["accent"], color, motif === "sky" ? 0.65 : 0.8);
  }

  if (p.reference) {
    const ref = p.reference;
    tint([...SKY_ROLES, "cloudShade"], ref.top, 0.6);
    tint([...LAND_ROLES, ...WATER_ROLES, "wall", "roof"], ref.bottom, 0.5);
    tint(["accent", "flower", "cloth", "fur", "planet"], ref.accent, 0.6);
    tint(["accent2", "flower2"], ref.palette[1] ?? ref.accent, 0.5);
  }

  for (const name of p.bannedColors) drain(pal, roles, COLOR_WORDS[name]);
  return pal;
}

/** Removes a colour from every role that resembles it (hue for chromatic colours, lightness otherwise). */
function drain(pal: ScenePalette, roles: Role[], banned: Rgb): void {
  const [bh, bs] = toHsl(banned);
  const bl = luma(banned);
  for (const r of roles) {
    const c = pal[r];
    const [h, s] = toHsl(c);
    if (bs > 0.25) {
      if (s > 0.18 && hueDistance(h, bh) < 40) pal[r] = adjust(c, 0.12);
    } else if (bl < 60 && luma(c) < 60) pal[r] = mix(c, [110, 110, 118], 0.6);
    else if (bl > 200 && luma(c) > 200) pal[r] = mix(c, [150, 150, 158], 0.5);
    else if (bl >= 60 && bl <= 200 && s < 0.12 && Math.abs(luma(c) - bl) < 50) {
      pal[r] = adjust(mix(c, [200, 120, 80], 0.3), 1.2);
    }
  }
}
