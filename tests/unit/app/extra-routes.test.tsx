// The pages beyond docs/spec.md §2 (issue 42): /gallery/<id> for anyone, /moderation for operators alone; and
// (issue 46) a person's collections.
// Neither joins the spec's table (the site map, the prerendered pages, the sitemap), and /moderation is,
// for anyone else, the not-found page with its title and head: nothing on it says the page exists.
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { EXTRA_ROUTES, ROUTES, matchesRoute } from "#src/app/route-table.ts";
import { AppRoutes, preloadRoute, routeFor } from "#src/app/routes.tsx";
import { setSessionView } from "#src/state/session-store.ts";

afterEach(cleanup);

const ID = "0b7c2a4e-1f7e-4c1b-9d5e-5a2b8f0c6d11";

describe("the pages beyond the spec's table", () => {
  it("match their addresses: one image id after /gallery/, and /moderation", () => {
    expect(routeFor(`/gallery/${ID}`)?.page).toBe("galleryImage");
    expect(routeFor(`/gallery/${ID}/`)?.page).toBe("galleryImage");
    expect(routeFor("/gallery")?.page).toBe("gallery");
    expect(routeFor(`/gallery/${ID}/more`)).toBeUndefined();
    expect(routeFor("/moderation")?.access).toBe("operator");
    const image = EXTRA_ROUTES.find((r) => r.page === "galleryImage")!;
    expect(matchesRoute(image, "/gallery/")).toBe(false);
    expect(matchesRoute(image, "/gallery/x")).toBe(true);
  });

  it("match a person's collections, /collections and one collection's id after it, both signed-in pages", () => {
    expect(routeFor("/collections")).toMatchObject({ page: "collections", access: "protected" });
    expect(routeFor(`/collections/${ID}`)).toMatchObject({ page: "collection", access: "protected" });
    expect(routeFor(`/collections/${ID}/more`)).toBeUndefined();
  });

  it("stay out of the spec's table, so no prerendered page, site map or sitemap names them", () => {
    const paths = ROUTES.map((r) => r.path);
    expect(paths).not.toContain("/moderation");
    expect(paths.some((p) => p.includes(":"))).toBe(false);
    expect(EXTRA_ROUTES.every((r) => r.access === "operator" || r.prerender === false)).toBe(true);
  });

  it("draw /moderation for a visitor as the not-found page, titled as one", async () => {
    setSessionView({ status: "signed-out", user: null, verified: true });
    await preloadRoute("/moderation");
    const location = memoryLocation({ path: "/moderation", record: true });
    render(
      <Router hook={location.hook} searchHook={location.searchHook}>
        <AppRoutes onError={() => undefined} />
      </Router>,
    );
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
    expect(screen.getByText("/moderation")).toBeTruthy();
    await waitFor(() => expect(document.title).toBe("Page Not Found · PromptCanvas"));
    // The head the router applies is the not-found page's too.
    await waitFor(() =>
      expect(document.head.querySelector('meta[property="og:title"]')?.getAttribute("content")).toBe(
        "Page Not Found · PromptCanvas",
      ),
    );
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex, nofollow");
  });
});
