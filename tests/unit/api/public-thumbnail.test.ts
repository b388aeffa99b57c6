// A gallery tile's thumbnail read without the API client: the request is the one supabase-js makes for a
// transformed download as a visitor, and anything but a picture is "could not read it this way".
import { describe, expect, it } from "vitest";
import { loadPublicThumbnail, thumbnailUrl } from "#src/api/public-thumbnail.ts";

const config = { supabaseUrl: "http://api.test", supabaseAnonKey: "anon-key", productionHost: "" };

function answering(res: () => Response | Promise<Response>) {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const fetcher = (async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), headers: { ...(init?.headers as Record<string, string>) } });
    return res();
  }) as typeof fetch;
  return { calls, fetcher };
}

const jpeg = () =>
  new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), { status: 200, headers: { "content-type": "image/jpeg" } });

describe("loadPublicThumbnail", () => {
  it("asks the Storage API's transformation for a square of the side, as the anon role", async () => {
    const { calls, fetcher } = answering(jpeg);
    const blob = await loadPublicThumbnail("user-1/a b#1.png", 384, { config, fetcher });
    expect(blob?.type).toBe("image/jpeg");
    expect(blob?.size).toBe(4);
    expect(calls).toEqual([
      {
        url: "http://api.test/storage/v1/render/image/authenticated/generations/user-1/a%20b%231.png?width=384&height=384&resize=cover&quality=75",
        // WebP where the Storage API can make it: fetch()'s default */* would get the stored PNG.
        headers: { apikey: "anon-key", Authorization: "Bearer anon-key", Accept: "image/webp,*/*;q=0.8" },
      },
    ]);
    expect(thumbnailUrl("http://api.test", "u/x.png", 256)).toContain("/generations/u/x.png?width=256&height=256&");
  });

  it("is null when the read is refused, answers something other than a picture, or cannot be made", async () => {
    const refused = answering(() => new Response('{"error":"not found"}', { status: 400 }));
    expect(await loadPublicThumbnail("u/x.png", 256, { config, fetcher: refused.fetcher })).toBeNull();
    const html = answering(
      () => new Response("<html>proxy error</html>", { headers: { "content-type": "text/html" } }),
    );
    expect(await loadPublicThumbnail("u/x.png", 256, { config, fetcher: html.fetcher })).toBeNull();
    const offline = answering(() => Promise.reject(new TypeError("Failed to fetch")));
    expect(await loadPublicThumbnail("u/x.png", 256, { config, fetcher: offline.fetcher })).toBeNull();
  });

  it("asks nothing when no backend is configured", async () => {
    const { calls, fetcher } = answering(jpeg);
    const none = { supabaseUrl: "", supabaseAnonKey: "", productionHost: "" };
    expect(await loadPublicThumbnail("u/x.png", 256, { config: none, fetcher })).toBeNull();
    expect(calls).toEqual([]);
  });
});
