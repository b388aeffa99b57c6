import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { PROTECTED_PATHS, ROUTES } from "../../../src/app/route-table";
import { AppRoutes } from "../../../src/app/routes";

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

function renderAt(path: string) {
  const location = memoryLocation({ path });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <AppRoutes onError={() => undefined} />
    </Router>,
  );
}

describe("routes", () => {
  it("has exactly the paths of spec §2", () => {
    expect(ROUTES.map((r) => r.path).sort()).toEqual([...SPEC_PATHS].sort());
  });

  it("protects exactly the signed-in pages", () => {
    expect([...PROTECTED_PATHS].sort()).toEqual(["/account", "/billing", "/dashboard", "/history", "/my-generations"]);
  });

  it("draws the generator on /generate", async () => {
    renderAt("/generate");
    expect(await screen.findByRole("heading", { level: 1, name: "Generate" })).toBeTruthy();
    expect(screen.getByLabelText("Prompt")).toBeTruthy();
    expect(screen.queryByText("Coming next")).toBeNull();
    expect(document.title).toBe("Generate · PromptCanvas");
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
