// @vitest-environment node
// The share target takes what the device shares (the share sheet's own navigation, or a form of this
// app's pages) and turns away a form posted from another site without reading or keeping its image.
import { afterEach, describe, expect, it } from "vitest";
import { db } from "#src/db/db.ts";
import { takeOpenedImage } from "#src/db/opened-image.ts";
import { isOwnShare, receiveShare, type ShareSender } from "../../../sw/share-target.ts";

const OWN = "https://promptcanvas.test";
const OWN_PAGE = { url: `${OWN}/generate` };

function share(origin: string | null): Request {
  const form = new FormData();
  form.append("title", "Shared");
  form.append("image", new File([new Uint8Array([137, 80, 78, 71])], "holiday.png", { type: "image/png" }));
  const headers = new Headers();
  if (origin !== null) headers.set("Origin", origin);
  return new Request(`${OWN}/share-target`, { method: "POST", body: form, headers });
}

/** A sender whose submitting page is `page` (undefined: a page this worker cannot see, another origin's). */
const from = (clientId: string, page?: { url: string }): ShareSender => ({
  clientId,
  findClient: async (id) => (id === clientId ? page : undefined),
});

afterEach(async () => {
  await takeOpenedImage(db);
});

describe("share target", () => {
  it("takes the device's share (no submitting page) and a form of this app's own pages", async () => {
    expect(await isOwnShare(share(null), from(""), OWN)).toBe(true);
    expect(await isOwnShare(share("null"), from(""), OWN)).toBe(true);
    expect(await isOwnShare(share(OWN), from("page-1", OWN_PAGE), OWN)).toBe(true);
  });

  it("refuses a form posted from another site, or from a sandboxed page (Origin null) of any site", async () => {
    expect(await isOwnShare(share("https://evil.test"), from("", undefined), OWN)).toBe(false);
    expect(await isOwnShare(share("https://evil.test"), from("x", undefined), OWN)).toBe(false);
    expect(await isOwnShare(share("http://promptcanvas.test"), from("x", undefined), OWN)).toBe(false);
    expect(await isOwnShare(share("null"), from("sandboxed", undefined), OWN)).toBe(false);
    expect(await isOwnShare(share(null), from("elsewhere", { url: "https://evil.test/" }), OWN)).toBe(false);
  });

  it("keeps the image of an own share and opens the generator on it", async () => {
    const answer = await receiveShare(share(null), from(""), OWN);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe(`${OWN}/generate?open=shared`);
    expect((await takeOpenedImage(db))?.name).toBe("holiday.png");
  });

  it("keeps nothing of a cross-site post and opens the generator as it is", async () => {
    const answer = await receiveShare(share("https://evil.test"), from("x"), OWN);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe(`${OWN}/generate`);
    expect(await takeOpenedImage(db)).toBeNull();
  });
});
