import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { loadPageAhead } from "#src/app/lazy-page.ts";
import { ROUTES } from "#src/app/route-table.ts";
import { AppRoutes, preloadRoute } from "#src/app/routes.tsx";
import { registerSessionRuntime, setSessionView } from "#src/state/session-store.ts";

afterEach(cleanup);

const SPEC_PATHS = [
  "/",
  "/gallery",
  "/dashboard",
  "/billing",
  "/account",
  "/my-generations",
  "/history",
  "/blog",
  "/blog/complete-guide-ai-image-generation",
  "/blog/ai-art-styles-guide",
  "/blog/prompt-engineering-masterclass",
  "/ai-image-generator",
  "/free-ai-image-generator",
  "/ai-art-generator",
  "/prompt-library",
  "/prompts",
  "/faq",
  "/tutorials",
  "/pricing",
  "/privacy",
  "/terms",
  "/content-policy",
  "/site-map",
  "/domain-diagnostics",
  "/status",
  "/payment-success",
  "/payment-canceled",
  "/auth",
  "/reset-password",
  "/generate",
  "/templates",
  "/styles",
  "/styles-library",
  "/templates-library",
  "/advanced",
  "/generate-audio",
  "/text-effects",
  "/more",
  "/styles/photorealistic",
  "/styles/anime",
];

function renderAt(path: string, onError: (error: unknown) => void = () => undefined) {
  const location = memoryLocation({ path, record: true });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <AppRoutes onError={onError} />
    </Router>,
  );
  return location;
}

describe("routes", () => {
  it("has exactly the paths of docs/spec.md §2", () => {
    expect(ROUTES.map((r) => r.path).sort()).toEqual([...SPEC_PATHS].sort());
  });

  it("protects exactly the signed-in pages", () => {
    const protectedPaths = ROUTES.filter((r) => r.access === "protected").map((r) => r.path);
    expect(protectedPaths.sort()).toEqual(["/account", "/billing", "/dashboard", "/history", "/my-generations"]);
  });

  it("draws the generator on /generate", async () => {
    // The generator's code is large; load it first, as main.tsx does, so the wait measures the render.
    await preloadRoute("/generate");
    renderAt("/generate");
    expect(await screen.findByRole("heading", { level: 1, name: "Generate" })).toBeTruthy();
    // The prompt editor is its own lazily loaded chunk ('Loading editor…' meanwhile).
    expect(await screen.findByLabelText("Prompt")).toBeTruthy();
    expect(screen.queryByText("Coming next")).toBeNull();
    expect(document.title).toBe("Generate · PromptCanvas");
  });

  it("a sign-out that leaves a protected page for / stays on /, while / is still loading", async () => {
    registerSessionRuntime(async () => ({ signOut: async () => ({ ok: true as const }) }));
    setSessionView({ status: "signed-in", user: { id: "u1", email: "a@example.com" }, verified: true });
    try {
      const location = renderAt("/billing");
      // As the account menu does: go to /, then the session ends, before /'s code has arrived.
      await act(async () => {
        location.navigate("/");
        setSessionView({ status: "signed-out", user: null, verified: true });
      });
      await screen.findByRole("heading", { level: 1, name: ROUTES.find((r) => r.path === "/")!.title });
      expect(location.history).toEqual(["/billing", "/"]);
    } finally {
      setSessionView({ status: "checking", user: null, verified: false });
    }
  });

  it("draws a page loaded ahead in the navigation's own render, and keeps the old page while one loads", async () => {
    const title = (path: string) => ROUTES.find((r) => r.path === path)!.title;
    await preloadRoute("/pricing");
    // As src/app/page-preload.ts loads a signed-in person's pages: through the router's own loader.
    await loadPageAhead("faq");
    const location = renderAt("/pricing");
    await screen.findByRole("heading", { level: 1, name: title("/pricing") });
    act(() => location.navigate("/faq"));
    // No wait: the render the navigation made drew the new page.
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(title("/faq"));
    // A page whose code is not here yet: the old page stays (no "Loading…" in between) until it is.
    act(() => location.navigate("/terms"));
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(title("/faq"));
    expect(screen.queryByText("Loading…")).toBeNull();
    await screen.findByRole("heading", { level: 1, name: title("/terms") });
  });

  it("shows the 404 page with the bad path and its three ways out", async () => {
    renderAt("/no/such/page?x=1");
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
    expect(screen.getByText("/no/such/page?x=1")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Go Home" }).getAttribute("href")).toBe("/");
    expect(screen.getByRole("link", { name: "Browse Gallery" }).getAttribute("href")).toBe("/gallery");
    expect(screen.getByRole("button", { name: "Go Back" })).toBeTruthy();
  });
});

// The public site's own pages (the generator, gallery and sign-in pages belong to other features).
const OTHERS = new Set(["comingNext", "auth", "resetPassword", "gallery", "paymentSuccess", "paymentCanceled"]);
const CONTENT_PAGES = ROUTES.filter((r) => r.access === "public" && !OTHERS.has(r.page));

describe("public pages", () => {
  it.each(CONTENT_PAGES.map((r) => [r.path, r.title]))("%s draws its own heading and content", async (path, title) => {
    await preloadRoute(path);
    renderAt(path, (e) => {
      throw e;
    });
    const heading = await screen.findByRole("heading", { level: 1 });
    expect(heading.textContent).toBe(title);
    expect(screen.queryByText("Coming next")).toBeNull();
    expect(document.body.textContent!.length).toBeGreaterThan(300);
  });

  it("never claims more styles or models than the product has", async () => {
    for (const r of CONTENT_PAGES) {
      await preloadRoute(r.path);
      renderAt(r.path);
      await screen.findByRole("heading", { level: 1 });
      const text = document.body.textContent ?? "";
      expect(text, r.path).not.toMatch(/\b(30|50)\+ styles/i);
      expect(text, r.path).not.toMatch(/Stable Diffusion|Midjourney|DALL·E 3/);
      cleanup();
    }
  });
});
