// A visitor opening the prerendered /gallery: its inline script (startFirstScreen, run here from its
// serialized source exactly as the page carries it) asks for the first page and the thumbnails of the
// tiles in view before the app's code arrives, and the page then uses those answers instead of asking again.
import { cleanup, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GENERATION_COLUMNS } from "#shared/vocabulary/rows.ts";
import { generationRow } from "../../../support/records.ts";
import { renderAt } from "../../../support/render-at.tsx";

const listPublished = vi.fn();
const loadPublishedImage = vi.fn(async () => ({ ok: false, error: { message: "not asked for" } }));
vi.mock("#src/api/gallery.ts", () => ({ listPublished, loadPublishedImage }));

const { FIRST_SCREEN_PLACEHOLDERS, startFirstScreen } = await import("#src/features/gallery/first-screen.ts");
const { default: GalleryPage } = await import("#src/features/gallery/gallery-page.tsx");

const URL_ = "https://backend.example";
const KEY = "anon-key";
const rows = Array.from({ length: 3 }, (_, i) =>
  generationRow(`00000000-0000-4000-8000-00000000000${i + 1}`, "someone", {
    prompt: `a fox in the snow, study ${i + 1}`,
    image_path: `someone/image-${i + 1}.png`,
    is_public: true,
  }),
);

/** Runs the inline script as the prerendered page does: its source text, called with its options. */
function runInlineScript(
  config: { supabaseUrl: string; supabaseAnonKey: string } = { supabaseUrl: URL_, supabaseAnonKey: KEY },
) {
  const options = {
    ...config,
    columns: GENERATION_COLUMNS,
    bucket: "generations",
    limit: 25,
    accept: "image/webp,*/*;q=0.8",
    sides: [256, 320, 384, 512, 640, 768],
    placeholders: FIRST_SCREEN_PLACEHOLDERS,
  };
  // A new function from the text alone: the script works without anything around it.
  new Function(`(${startFirstScreen.toString()})(${JSON.stringify(options)});`)();
}

/** The prerendered placeholders: two columns of 194 px tiles, three rows; the third row below a 400 px screen. */
function drawPlaceholders() {
  const root = document.createElement("div");
  root.id = "root";
  const list = document.createElement("ul");
  for (let i = 0; i < 6; i++) {
    const li = document.createElement("li");
    li.setAttribute("data-gallery-placeholder", "");
    const top = Math.floor(i / 2) * 200;
    // 194 px with its border; the picture fills the 192 px inside it.
    li.getBoundingClientRect = () => ({ top, bottom: top + 194, width: 194, height: 194 }) as DOMRect;
    Object.defineProperty(li, "clientWidth", { value: 192 });
    list.append(li);
  }
  root.append(list);
  document.body.append(root);
  return root;
}

let fetched: { url: string; init?: RequestInit }[] = [];
let listStatus = 200;

beforeEach(() => {
  fetched = [];
  listStatus = 200;
  listPublished.mockReset();
  loadPublishedImage.mockClear();
  vi.stubGlobal("innerHeight", 400);
  vi.stubGlobal("devicePixelRatio", 2);
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      fetched.push({ url, init });
      if (url.includes("/rest/v1/")) return new Response(JSON.stringify(rows), { status: listStatus });
      return new Response(`bytes of ${url}`, { headers: { "Content-Type": "image/webp" } });
    }),
  );
  vi.spyOn(URL, "createObjectURL").mockImplementation(() => "blob:test");
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
});

afterEach(() => {
  delete window.__GALLERY_FIRST_SCREEN__;
  delete window.__APP_CONFIG__;
  document.body.innerHTML = "";
  window.history.replaceState(null, "", "/");
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the gallery's first screen (inline script)", () => {
  it("asks for the first page as the anon role, then the thumbnails of the tiles in view at their drawn size", async () => {
    window.history.replaceState(null, "", "/gallery");
    drawPlaceholders();
    runInlineScript();
    const first = window.__GALLERY_FIRST_SCREEN__;
    expect(first?.q).toBe("");
    expect(await first?.rows).toEqual(rows);

    const list = fetched[0];
    expect(list.url).toBe(
      `${URL_}/rest/v1/generations?select=${encodeURIComponent(GENERATION_COLUMNS)}&is_public=eq.true&order=created_at.desc,id.desc&limit=25`,
    );
    expect(list.init?.headers).toEqual({ apikey: KEY, Authorization: `Bearer ${KEY}` });
    // Three rows, and all three placeholders they fill are in view (the fourth row slot has no row).
    // The 192 CSS px the picture fills, at a pixel ratio of 2, need 384 px: the 384 px side (with the
    // border it would be 388 px and the 512 px side, which the page's tile, measuring inside, never asks for).
    expect(fetched.slice(1).map((f) => f.url)).toEqual(
      rows.map(
        (r) =>
          `${URL_}/storage/v1/render/image/authenticated/generations/${r.image_path}?width=384&height=384&resize=cover&quality=75`,
      ),
    );
    // Thumbnails ask for WebP: the Storage API answers fetch()'s default */* with the stored PNG.
    for (const f of fetched.slice(1)) {
      expect(f.init?.headers).toEqual({ apikey: KEY, Authorization: `Bearer ${KEY}`, Accept: "image/webp,*/*;q=0.8" });
    }
    expect(Object.keys(first?.images ?? {})).toEqual(rows.map((r) => r.image_path));
  });

  it("leaves out tiles below the screen", async () => {
    window.history.replaceState(null, "", "/gallery");
    drawPlaceholders();
    vi.stubGlobal("innerHeight", 150);
    runInlineScript();
    await window.__GALLERY_FIRST_SCREEN__?.rows;
    // Only the first row of placeholders (top 0) is on a 150 px screen.
    expect(fetched.slice(1).map((f) => f.url.split("/").pop()?.split("?")[0])).toEqual(["image-1.png", "image-2.png"]);
  });

  it("draws each thumbnail into its placeholder as it arrives, before the app's code is here", async () => {
    window.history.replaceState(null, "", "/gallery");
    const root = drawPlaceholders();
    vi.stubGlobal("innerHeight", 150);
    runInlineScript();
    await window.__GALLERY_FIRST_SCREEN__?.rows;
    await Promise.all(Object.values(window.__GALLERY_FIRST_SCREEN__?.images ?? {}).map((i) => i.blob));
    await Promise.resolve();
    const tiles = Array.from(root.querySelectorAll<HTMLElement>("li"));
    // The two tiles on the screen show their pictures; the third row's tile was never asked for.
    expect(tiles.map((t) => t.style.backgroundImage)).toEqual(['url("blob:test")', 'url("blob:test")', "", "", "", ""]);
    expect(tiles[0].style.backgroundSize).toBe("cover");
    expect(Object.values(window.__GALLERY_FIRST_SCREEN__?.images ?? {}).map((i) => i.url)).toEqual([
      "blob:test",
      "blob:test",
    ]);
  });

  it("draws nothing into a page that will be drawn afresh (an address with a query)", async () => {
    window.history.replaceState(null, "", "/gallery?q=fox");
    const root = drawPlaceholders();
    runInlineScript();
    await window.__GALLERY_FIRST_SCREEN__?.rows;
    await Promise.all(Object.values(window.__GALLERY_FIRST_SCREEN__?.images ?? {}).map((i) => i.blob));
    await Promise.resolve();
    expect(Object.keys(window.__GALLERY_FIRST_SCREEN__?.images ?? {})).toHaveLength(3);
    expect(Array.from(root.querySelectorAll<HTMLElement>("li")).map((t) => t.style.backgroundImage)).toEqual(
      Array(6).fill(""),
    );
  });

  it("searches through search_gallery when the address has ?q=", async () => {
    window.history.replaceState(null, "", "/gallery?q=%20fox%20");
    runInlineScript();
    expect(window.__GALLERY_FIRST_SCREEN__?.q).toBe("fox");
    expect(fetched[0].url).toBe(`${URL_}/rest/v1/rpc/search_gallery?select=${encodeURIComponent(GENERATION_COLUMNS)}`);
    expect(fetched[0].init?.method).toBe("POST");
    expect(JSON.parse(String(fetched[0].init?.body))).toEqual({
      p_query: "fox",
      p_before: null,
      p_before_id: null,
      p_limit: 25,
    });
  });

  it("waits for /app-config.js, whose backend wins over the one the build names", async () => {
    window.history.replaceState(null, "", "/gallery");
    const config = document.createElement("script");
    config.setAttribute("src", "/app-config.js");
    document.head.append(config);
    runInlineScript({ supabaseUrl: "https://built.example", supabaseAnonKey: "built-key" });
    expect(fetched).toHaveLength(0);
    window.__APP_CONFIG__ = { supabaseUrl: URL_, supabaseAnonKey: KEY };
    config.dispatchEvent(new Event("load"));
    expect(fetched[0].url.startsWith(`${URL_}/rest/v1/generations?`)).toBe(true);
    config.remove();
  });

  it("asks for nothing when someone is signed in here: their gallery leaves out what they reported", () => {
    window.localStorage.setItem(`sb-${new URL(URL_).hostname.split(".")[0]}-auth-token`, '{"user":{"id":"u1"}}');
    try {
      runInlineScript();
      expect(fetched).toHaveLength(0);
      expect(window.__GALLERY_FIRST_SCREEN__).toBeUndefined();
    } finally {
      window.localStorage.clear();
    }
  });

  it("asks for nothing without a backend", () => {
    runInlineScript({ supabaseUrl: "", supabaseAnonKey: "" });
    expect(fetched).toHaveLength(0);
    expect(window.__GALLERY_FIRST_SCREEN__).toBeUndefined();
  });
});

describe("the gallery page with a first screen", () => {
  it("shows the first page and the pictures in view without asking again, and asks again on the next visit", async () => {
    window.history.replaceState(null, "", "/gallery");
    drawPlaceholders();
    runInlineScript();
    // The page's code arrives after the list: the placeholders it measured give way to the page.
    await window.__GALLERY_FIRST_SCREEN__?.rows;
    document.getElementById("root")?.remove();

    renderAt("/gallery", <GalleryPage />);
    const list = await screen.findByRole("list", { name: "Published images" });
    expect(within(list).getAllByRole("button", { name: /^Open: / })).toHaveLength(3);
    expect(screen.getByRole("status").textContent).toBe("3 published images");
    await vi.waitFor(() => expect(document.querySelectorAll('img[src="blob:test"]')).toHaveLength(3));
    expect(listPublished).not.toHaveBeenCalled();
    expect(loadPublishedImage).not.toHaveBeenCalled();
    expect(fetched).toHaveLength(4);

    // Back on the page later: the answers were used, so the page asks the backend again.
    cleanup();
    listPublished.mockResolvedValue({ ok: true, value: { rows } });
    renderAt("/gallery", <GalleryPage />);
    await screen.findByRole("list", { name: "Published images" });
    expect(listPublished).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(loadPublishedImage).toHaveBeenCalledTimes(3));
  });

  it("shows a thumbnail already in from the tile's first render, and keeps its URL for the placeholder", async () => {
    window.history.replaceState(null, "", "/gallery");
    drawPlaceholders();
    runInlineScript();
    await window.__GALLERY_FIRST_SCREEN__?.rows;
    await Promise.all(Object.values(window.__GALLERY_FIRST_SCREEN__?.images ?? {}).map((i) => i.blob));
    await Promise.resolve();
    document.getElementById("root")?.remove();

    renderAt("/gallery", <GalleryPage />);
    const list = await screen.findByRole("list", { name: "Published images" });
    // No tile is ever drawn empty: each shows its picture in the same render that puts it on the page.
    expect(list.querySelectorAll('img[src="blob:test"]')).toHaveLength(3);
    // No tile shows its still placeholder (the menu buttons carry an icon of their own).
    expect(list.querySelectorAll('button[aria-label^="Open: "] svg')).toHaveLength(0);
    expect(loadPublishedImage).not.toHaveBeenCalled();
    cleanup();
    expect(URL.revokeObjectURL).not.toHaveBeenCalled();
    expect(window.__GALLERY_FIRST_SCREEN__?.images).toEqual({});
  });

  it("asks through the API client when the first screen's answer failed", async () => {
    window.history.replaceState(null, "", "/gallery");
    listStatus = 500;
    runInlineScript();
    listPublished.mockResolvedValue({ ok: true, value: { rows: [rows[0]] } });
    renderAt("/gallery", <GalleryPage />);
    await screen.findByRole("list", { name: "Published images" });
    expect(listPublished).toHaveBeenCalledWith({ q: undefined, before: undefined, limit: 24 });
  });

  it("does not use an answer for another search", async () => {
    window.history.replaceState(null, "", "/gallery?q=teapot");
    runInlineScript();
    window.history.replaceState(null, "", "/gallery?q=fox");
    listPublished.mockResolvedValue({ ok: true, value: { rows: [rows[0]] } });
    renderAt("/gallery?q=fox", <GalleryPage />);
    await screen.findByRole("list", { name: "Published images" });
    expect(listPublished).toHaveBeenCalledWith({ q: "fox", before: undefined, limit: 24 });
  });
});
