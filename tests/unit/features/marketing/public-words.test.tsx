// Words on public pages that were once untrue of a default install (docs/decisions/143-what-the-public-pages-say.md):
// the home page's headline and figures, the payment-canceled page, the tutorial's count, the FAQ's daily limit.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import type { ReactNode } from "react";
import { PaymentCanceledPage } from "#src/features/billing/payment-result-page.tsx";
import TutorialsPage from "#src/features/content/tutorials-page.tsx";
import { FAQ } from "#src/features/marketing/faq-entries.ts";
import HomePage from "#src/features/marketing/home-page.tsx";

afterEach(cleanup);

function renderAt(path: string, page: ReactNode) {
  const { hook } = memoryLocation({ path });
  return render(<Router hook={hook}>{page}</Router>);
}

describe("the home page", () => {
  it("does not call the generator AI in its headline and says what draws beside it", () => {
    renderAt("/", <HomePage />);
    const heading = screen.getByRole("heading", { level: 1 });
    expect(heading.textContent).toBe("Text to Image Generator");
    const hero = heading.closest("section")?.textContent ?? "";
    expect(hero).toContain("built-in procedural renderer, which is not an AI model");
    expect(hero).toContain("every image says which engine drew it");
  });

  it("shows no render time it does not measure", () => {
    renderAt("/", <HomePage />);
    const text = document.body.textContent ?? "";
    expect(text).not.toMatch(/\b\d+(?:\.\d+)?\s?(?:s|ms)\b/);
    expect(text).toContain("quality levels");
  });
});

describe("the payment pages", () => {
  it("/payment-canceled says nothing was charged", () => {
    renderAt("/payment-canceled", <PaymentCanceledPage />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Payment Canceled");
    expect(document.body.textContent).toContain("nothing was charged and your plan has not changed");
  });
});

describe("the tutorials and the FAQ", () => {
  it("name where today's count is shown", () => {
    renderAt("/tutorials", <TutorialsPage />);
    const text = document.body.textContent ?? "";
    expect(text).not.toContain("counter shows how many of today's five remain");
    expect(text).toContain("Your Dashboard shows how many of today's five you have used");
  });

  it("say that only a request the person holds waits for the reset", () => {
    const answer = FAQ.find((e) => e.id === "daily-limit")?.answer ?? "";
    expect(answer).toContain("Hold it until the reset");
    expect(answer).toContain("Nothing waits unless you choose so");
    expect(answer).not.toMatch(/prompts you queue beyond the limit wait/);
  });

  it("say how to report an image and that each published image has its own link", () => {
    const ids = FAQ.map((e) => e.id);
    expect(ids).toEqual(expect.arrayContaining(["report-image", "share-image", "refused-prompt"]));
    expect(FAQ.find((e) => e.id === "share-image")?.answer).toContain("/gallery/");
  });
});
