// The public gallery against the real local backend with supabase-js, as the app calls it: a new
// generation is published (through publish-generation's checks) when, and only when, its owner opted in
// to the gallery, and a gallery image is read through the Storage API as the caller's role every time,
// so unpublishing withdraws it at once and nobody reads another person's private image by its path.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { setBackendClient } from "#src/api/client.ts";
import { listPublished, loadPublishedImage } from "#src/api/gallery.ts";
import { loadPublicThumbnail, THUMBNAIL_ACCEPT, thumbnailUrl } from "#src/api/public-thumbnail.ts";
import { clientsFor, useBackend } from "../support/backend-suite.ts";
import { BUILTIN_ONLY, startBackend } from "../support/backend.ts";
import { newUser, type NewUser, publish } from "../support/clients.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

type Made = { id: string; image_path: string; is_public: boolean };

const backend = useBackend(() => startBackend({ env: BUILTIN_ONLY }));
const { anon: visitor } = clientsFor(backend);

async function setOptIn(user: NewUser, optIn: boolean): Promise<void> {
  const { error } = await user.client
    .from("user_preferences")
    .update({ public_gallery_opt_in: optIn })
    .eq("user_id", user.id);
  if (error) throw error;
}

/** A generation made by the generate-image function, as the app asks for one. */
async function generate(user: NewUser, prompt: string): Promise<Made> {
  const { data, error } = await user.client.functions.invoke("generate-image", {
    body: { request_id: randomUUID(), prompt, style: "anime", quality: "standard", aspect_ratio: "1:1", seed: 3 },
  });
  if (error) throw error;
  return data.generation as Made;
}

async function visitorFinds(word: string): Promise<string[]> {
  setBackendClient(visitor);
  const page = await listPublished({ q: word, limit: 10 });
  if (!page.ok) throw new Error(page.error.detail);
  return page.value.rows.map((r) => r.id);
}

/** An opted-in owner with one published generation of `prompt`, and a second signed-in person. */
async function ownerWithPublished(label: string, prompt: string) {
  const owner = await newUser(backend, `${label}owner`);
  const stranger = await newUser(backend, `${label}stranger`);
  await setOptIn(owner, true);
  const made = await generate(owner, prompt);
  // The opt-in publishes it after the answer; publishing again now is the same, and waits for it.
  await publish(owner, made.id);
  return { owner, stranger, made: { ...made, is_public: true } };
}

/** Asks until a visitor's search finds what `word` should (a publish after the answer takes a moment). */
async function visitorFindsSoon(word: string, expected: string[]): Promise<string[]> {
  let found: string[] = [];
  for (let i = 0; i < 50; i++) {
    found = await visitorFinds(word);
    if (JSON.stringify(found) === JSON.stringify(expected)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return found;
}

describe("publishing follows the gallery opt-in", () => {
  it("with the opt-in on, a new generation is published once its checks pass, and a visitor finds it and loads its image", async () => {
    const person = await newUser(backend, "opted-in");
    await setOptIn(person, true);
    const made = await generate(person, "a saffron kite over the dunes");
    // Stored private, then published through publish-generation after the answer (decision 141).
    expect(made.is_public).toBe(false);
    expect(await visitorFindsSoon("saffron", [made.id])).toEqual([made.id]);
    const image = await loadPublishedImage(made.image_path);
    if (!image.ok) throw new Error(image.error.detail);
    expect([...new Uint8Array(await image.value.arrayBuffer()).slice(0, 8)]).toEqual(PNG_SIGNATURE);
  });

  it("with the opt-in off (the default), a new generation stays private and a visitor finds nothing", async () => {
    const person = await newUser(backend, "opted-out");
    const made = await generate(person, "a cobalt kite over the marsh");
    expect(made.is_public).toBe(false);
    // Turning the opt-in on later publishes new generations only.
    await setOptIn(person, true);
    expect(await visitorFinds("cobalt")).toEqual([]);
    setBackendClient(visitor);
    expect((await loadPublishedImage(made.image_path)).ok).toBe(false);
  });
});

describe("gallery images are read through the bucket's policy on every load", () => {
  let owner: NewUser;
  let stranger: NewUser;
  let made: Made;

  beforeAll(async () => {
    ({ owner, stranger, made } = await ownerWithPublished("", "a vermilion lantern festival at night"));
  });

  it("a visitor loads a published image, and after unpublishing the same load is refused", async () => {
    setBackendClient(visitor);
    expect((await loadPublishedImage(made.image_path)).ok).toBe(true);

    const { error } = await owner.client.from("generations").update({ is_public: false }).eq("id", made.id);
    expect(error).toBeNull();

    setBackendClient(visitor);
    const refused = await loadPublishedImage(made.image_path);
    expect(refused.ok).toBe(false);
    expect(await visitorFinds("vermilion")).toEqual([]);
    // A signed-in stranger is refused as well; the owner still reads their own image.
    setBackendClient(stranger.client);
    expect((await loadPublishedImage(made.image_path)).ok).toBe(false);
    setBackendClient(owner.client);
    expect((await loadPublishedImage(made.image_path)).ok).toBe(true);
  });

  it("a second signed-in person cannot download another's private image by its path", async () => {
    const secret = await generate(stranger, "a private sketch of a teal heron");
    expect(secret.is_public).toBe(false);
    setBackendClient(owner.client);
    expect((await loadPublishedImage(secret.image_path)).ok).toBe(false);
    const direct = await owner.client.storage.from("generations").download(secret.image_path);
    expect(direct.data).toBeNull();
    expect(direct.error).not.toBeNull();
    setBackendClient(stranger.client);
    expect((await loadPublishedImage(secret.image_path)).ok).toBe(true);
  });
});

describe("gallery tiles read a thumbnail the Storage API scales, under the same policy", () => {
  let owner: NewUser;
  let stranger: NewUser;
  let made: Made;
  const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

  beforeAll(async () => {
    ({ owner, stranger, made } = await ownerWithPublished("thumb-", "an amber tram in the fog"));
  });

  it("a visitor gets a small JPEG, far lighter than the full image; after unpublishing it is refused", async () => {
    setBackendClient(visitor);
    const full = await loadPublishedImage(made.image_path);
    const thumb = await loadPublishedImage(made.image_path, 256);
    if (!full.ok || !thumb.ok) throw new Error("a published image did not load");
    const bytes = new Uint8Array(await thumb.value.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual(JPEG_SIGNATURE);
    expect(thumb.value.size).toBeLessThan(full.value.size / 5);
    // The same transformation straight through supabase-js, as the real client sends it.
    const direct = await visitor.storage
      .from("generations")
      .download(made.image_path, { transform: { width: 256, height: 256, resize: "cover", quality: 75 } });
    expect(direct.error).toBeNull();
    expect(direct.data?.size).toBe(thumb.value.size);

    const { error } = await owner.client.from("generations").update({ is_public: false }).eq("id", made.id);
    expect(error).toBeNull();
    setBackendClient(visitor);
    expect((await loadPublishedImage(made.image_path, 256)).ok).toBe(false);
    const refused = await visitor.storage
      .from("generations")
      .download(made.image_path, { transform: { width: 256, height: 256 } });
    expect(refused.data).toBeNull();
    setBackendClient(stranger.client);
    expect((await loadPublishedImage(made.image_path, 256)).ok).toBe(false);
    setBackendClient(owner.client);
    expect((await loadPublishedImage(made.image_path, 256)).ok).toBe(true);
  });

  it("a tile's own read gets WebP, half the bytes or less of the JPEG answered to fetch()'s default", async () => {
    const config = { supabaseUrl: backend.url, supabaseAnonKey: backend.anonKey, productionHost: "" };
    // Published again: the test before this one withdrew it.
    await publish(owner, made.id);
    const webp = await loadPublicThumbnail(made.image_path, 384, { config });
    expect(webp?.type).toBe("image/webp");
    const bytes = new Uint8Array(await webp!.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe("RIFF");
    expect(new TextDecoder().decode(bytes.slice(8, 12))).toBe("WEBP");
    const headers = { apikey: backend.anonKey, Authorization: `Bearer ${backend.anonKey}` };
    const url = thumbnailUrl(backend.url, made.image_path, 384);
    const jpeg = await fetch(url, { headers: { ...headers, Accept: "*/*" } });
    expect(jpeg.headers.get("content-type")).toBe("image/jpeg");
    // One address, two answers: caches must tell them apart by the Accept header, and so must the tag.
    expect(jpeg.headers.get("vary")).toBe("Accept, Origin");
    const jpegBytes = (await jpeg.arrayBuffer()).byteLength;
    expect(webp!.size).toBeLessThanOrEqual(jpegBytes / 2 + 1024);
    const again = await fetch(url, { headers: { ...headers, Accept: THUMBNAIL_ACCEPT } });
    expect(again.headers.get("etag")).not.toBe(jpeg.headers.get("etag"));
    expect((await again.arrayBuffer()).byteLength).toBe(webp!.size);

    const { error } = await owner.client.from("generations").update({ is_public: false }).eq("id", made.id);
    expect(error).toBeNull();
    expect(await loadPublicThumbnail(made.image_path, 384, { config })).toBeNull();
  });

  it("a bad transformation is a 400 with Supabase's error shape", async () => {
    const { data, error } = await owner.client.storage
      .from("generations")
      .download(made.image_path, { transform: { width: 99999 } });
    expect(data).toBeNull();
    expect(error).not.toBeNull();
    expect(error).toMatchObject({ statusCode: "400", message: "querystring/width must be <= 2500" });
  });
});
