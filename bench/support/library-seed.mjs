// A person's library of generated rows for the browser benchmarks, seeded as bench/history-bench.mjs
// seeds it: the rows written on the server with the service role, a minute apart, brought to the device
// by the app's own pull into Dexie, then a grid thumbnail for every record in the `images` table (16
// distinct 384 px WebP images as data: URLs, one copy per record), as a device that has shown them holds.
/* global indexedDB, OffscreenCanvas, FileReader */
import { randomUUID } from "node:crypto";
import { json, serviceRoleKeyFor } from "./app.mjs";

const MOODS = ["misty", "golden", "stormy", "quiet", "neon", "ancient", "frozen"];
const SUBJECTS = ["fox", "lighthouse", "castle", "dragon", "robot", "garden", "ship", "owl", "forest", "city"];
const PLACES = ["dunes", "harbour", "meadow", "glacier", "canyon", "island", "marsh", "valley", "cliff", "lake"];
export const STYLES = ["anime", "photorealistic", "watercolor", "digital-art", "3d-render"];
const QUALITIES = ["standard", "high", "ultra"];

export const promptAt = (i) =>
  `a ${MOODS[i % MOODS.length]} ${SUBJECTS[i % SUBJECTS.length]} above the ${PLACES[(i >> 2) % PLACES.length]}, study ${i}`;

const wordsOf = (text) => [
  ...new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  ),
];

/**
 * How many of the rows at `indices` a search of `text` finds (each term begins a word of the prompt), as the
 * app's search counts them: what a bench waits for the page to say.
 */
export function promptMatcher(indices) {
  const prompts = indices.map((i) => wordsOf(promptAt(i)));
  return (text) => {
    const terms = wordsOf(text);
    return prompts.filter((w) => terms.every((term) => w.some((x) => x.startsWith(term)))).length;
  };
}

/** Each keystroke of typing `phrases`, one character at a time, then the box cleared: what the search benches type. */
export function typedPhrases(phrases) {
  return phrases.map((phrase) => Array.from({ length: phrase.length }, (_, n) => phrase.slice(0, n + 1)));
}

/**
 * Writes `rows` rows of the person's on the server, newest last, a minute apart, in chunks of 1,000. Answers
 * their ids in that order (row i is promptAt(i), style STYLES[i % 5], saved when i % 4 is 0).
 */
export async function seedServer(app, secret, userId, rows) {
  const ids = [];
  const key = serviceRoleKeyFor(secret);
  const headers = { apikey: key, Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const start = Date.now() - rows * 60_000;
  for (let from = 0; from < rows; from += 1000) {
    const chunk = [];
    for (let i = from; i < Math.min(rows, from + 1000); i++) {
      const id = randomUUID();
      ids.push(id);
      chunk.push({
        id,
        user_id: userId,
        prompt: promptAt(i),
        style: STYLES[i % STYLES.length],
        quality: QUALITIES[i % QUALITIES.length],
        aspect_ratio: "1:1",
        width: 1024,
        height: 1024,
        seed: i,
        provider: "builtin",
        model: "procedural",
        image_path: `${userId}/${id}.png`,
        is_public: i % 9 === 0,
        is_saved: i % 4 === 0,
        created_at: new Date(start + i * 60_000).toISOString(),
      });
    }
    await json(await fetch(`${app.api}/rest/v1/generations`, { method: "POST", headers, body: JSON.stringify(chunk) }));
  }
  return ids;
}

/** Waits until the app's pull has brought `rows` rows into Dexie. */
export async function waitForPull(page, rows) {
  const until = Date.now() + 180_000;
  for (;;) {
    const count = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const open = indexedDB.open("promptcanvas");
          open.onsuccess = () => {
            const idb = open.result;
            const req = idb.transaction("generations").objectStore("generations").count();
            req.onsuccess = () => {
              idb.close();
              resolve(req.result);
            };
          };
          open.onerror = () => resolve(0);
        }),
    );
    if (count >= rows) return;
    if (Date.now() > until) throw new Error(`only ${count} of ${rows} rows reached the device`);
    await page.waitForTimeout(500);
  }
}

/**
 * Gives every record a thumbnail (16 distinct images drawn in the page, one copy each) and the `full`
 * newest records their full image too (1024² PNGs, as a device that made or opened them keeps them).
 * Answers the newest records' ids, newest first, and the thumbnails' mean size.
 */
export async function seedImages(page, full = 0) {
  return page.evaluate(async (full) => {
    const draw = (side, k) => {
      const canvas = new OffscreenCanvas(side, side);
      const g = canvas.getContext("2d");
      const grad = g.createLinearGradient(0, 0, side, side);
      grad.addColorStop(0, `hsl(${k * 22}, 70%, 45%)`);
      grad.addColorStop(1, `hsl(${k * 22 + 120}, 60%, 20%)`);
      g.fillStyle = grad;
      g.fillRect(0, 0, side, side);
      for (let c = 0; c < 40; c++) {
        g.fillStyle = `hsla(${(k * 37 + c * 11) % 360}, 80%, 60%, 0.5)`;
        g.beginPath();
        g.arc(
          ((c * 97) % 384) * (side / 384),
          ((c * 53 + k * 17) % 384) * (side / 384),
          (10 + ((c * 7) % 40)) * (side / 384),
          0,
          Math.PI * 2,
        );
        g.fill();
      }
      return canvas;
    };
    const thumbs = [];
    for (let k = 0; k < 16; k++) {
      const blob = await draw(384, k).convertToBlob({ type: "image/webp", quality: 0.8 });
      thumbs.push(
        await new Promise((resolve) => {
          const reader = new FileReader();
          reader.onload = () => resolve(reader.result);
          reader.readAsDataURL(blob);
        }),
      );
    }
    const images = [];
    for (let k = 0; k < full; k++) images.push(await draw(1024, k).convertToBlob({ type: "image/png" }));
    const idb = await new Promise((resolve, reject) => {
      const open = indexedDB.open("promptcanvas");
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const records = await new Promise((resolve) => {
      const req = idb.transaction("generations").objectStore("generations").getAll();
      req.onsuccess = () => resolve(req.result);
    });
    const newest = [...records].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1)).map((r) => r.id);
    const fullFor = new Map(newest.slice(0, full).map((id, k) => [id, images[k]]));
    await new Promise((resolve, reject) => {
      const tx = idb.transaction("images", "readwrite");
      const store = tx.objectStore("images");
      records.forEach((r, i) => {
        const image = fullFor.get(r.id);
        store.put({ id: r.id, userId: r.userId, thumbnail: thumbs[i % thumbs.length], ...(image ? { image } : {}) });
      });
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    idb.close();
    return {
      records: records.length,
      newest: newest.slice(0, Math.max(full, 8)),
      thumbnailBytes: thumbs.reduce((n, t) => n + t.length, 0) / thumbs.length,
    };
  }, full);
}
