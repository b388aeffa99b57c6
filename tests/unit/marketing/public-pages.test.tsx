import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { ROUTES } from "../../../src/app/route-table";
import { AppRoutes, preloadRoute } from "../../../src/app/routes";

afterEach(cleanup);

// The public site's own pages (the generator, gallery and sign-in pages belong to other features).
const OTHERS = new Set(["comingNext", "auth", "resetPassword", "gallery", "paymentSuccess", "paymentCanceled"]);
const CONTENT_PAGES = ROUTES.filter((r) => r.access === "public" && !OTHERS.has(r.page));

describe("public pages", () => {
  it.each(CONTENT_PAGES.map((r) => [r.path, r.title]))("%s draws its own heading and content", async (path, title) => {
    await preloadRoute(path);
    const { hook } = memoryLocation({ path });
    render(
      <Router hook={hook}>
        <AppRoutes
          onError={(e) => {
            throw e;
          }}
        />
      </Router>,
    );
    const heading = await screen.findByRole("heading", { level: 1 });
    expect(heading.textContent).toBe(title);
    expect(screen.queryByText("Coming next")).toBeNull();
    expect(document.body.textContent!.length).toBeGreaterThan(300);
  });

  it("never claims more styles or models than the product has", async () => {
    for (const r of CONTENT_PAGES) {
      await preloadRoute(r.path);
      const { hook } = memoryLocation({ path: r.path });
      render(
        <Router hook={hook}>
          <AppRoutes onError={() => undefined} />
        </Router>,
      );
      await screen.findByRole("heading", { level: 1 });
      const text = document.body.textContent ?? "";
      expect(text, r.path).not.toMatch(/\b(30|50)\+ styles/i);
      expect(text, r.path).not.toMatch(/Stable Diffusion|Midjourney|DALL·E 3/);
      cleanup();
    }
  });
});
