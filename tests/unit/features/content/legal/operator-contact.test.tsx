// The pages that send people to the operator of the site: with a contact address configured they show it
// as a mailto link; with none they say plainly that the site has published none. A prerendered page
// hydrates against the build's address and then shows the one /app-config.js gives, with no mismatch.
// The configuration is read once per page load, so each case loads the modules afresh.
import { act, cleanup, render, screen } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import type { ComponentType } from "react";

afterEach(() => {
  cleanup();
  delete window.__APP_CONFIG__;
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** The modules as a page load with this /app-config.js (none: undefined) and this build would see them. */
async function load(runtime: { contactEmail?: string } | undefined, built = "") {
  vi.resetModules();
  if (runtime) window.__APP_CONFIG__ = runtime;
  else delete window.__APP_CONFIG__;
  vi.stubEnv("VITE_CONTACT_EMAIL", built);
  const contact = await import("#src/features/content/legal/operator-contact.tsx");
  const pages: Record<string, ComponentType> = {
    "/content-policy": (await import("#src/features/content/legal/content-policy-page.tsx")).default,
    "/privacy": (await import("#src/features/content/legal/privacy-page.tsx")).default,
    "/terms": (await import("#src/features/content/legal/terms-page.tsx")).default,
  };
  return { ...contact, pages };
}

function renderPage(Page: ComponentType, path: string) {
  const { hook } = memoryLocation({ path });
  return render(
    <Router hook={hook}>
      <Page />
    </Router>,
  );
}

const PATHS = ["/content-policy", "/privacy", "/terms"];

describe("reaching the operator", () => {
  it.each(PATHS)("%s links to the configured address", async (path) => {
    const { pages } = await load({ contactEmail: "ops@example.org" });
    renderPage(pages[path], path);
    const link = screen.getByRole("link", { name: "ops@example.org" });
    expect(link.getAttribute("href")).toBe("mailto:ops@example.org");
    expect(document.body.textContent).toContain("write to the operator of this site at ops@example.org.");
    expect(document.body.textContent).not.toContain("has not published a contact address");
  });

  it.each(PATHS)("%s says plainly that there is no address when none is set", async (path) => {
    const { pages, NO_CONTACT_ADDRESS } = await load(undefined);
    renderPage(pages[path], path);
    expect(NO_CONTACT_ADDRESS).toBe("This site has not published a contact address.");
    expect(document.body.textContent).toContain(NO_CONTACT_ADDRESS);
    expect(document.querySelector('a[href^="mailto:"]')).toBeNull();
  });

  it("treats a setting that is not one address as none", async () => {
    const { OperatorContact, NO_CONTACT_ADDRESS } = await load({ contactEmail: "ops@example.org?cc=x@example.org" });
    render(<OperatorContact purpose="To ask" />);
    expect(document.body.textContent).toBe(
      `To ask, the operator of this site is the one to ask. ${NO_CONTACT_ADDRESS}`,
    );
    expect(document.querySelector("a")).toBeNull();
  });

  it("uses the build's address when /app-config.js names none", async () => {
    const { OperatorContact } = await load({ contactEmail: "" }, "built@example.org");
    render(<OperatorContact purpose="To ask" />);
    expect(screen.getByRole("link", { name: "built@example.org" }).getAttribute("href")).toBe(
      "mailto:built@example.org",
    );
  });

  it("hydrates a page prerendered with the build's address, then shows this site's", async () => {
    const { OperatorContact } = await load({ contactEmail: "ops@example.org" }, "built@example.org");
    const tree = <OperatorContact purpose="To ask" />;
    const container = document.createElement("div");
    container.innerHTML = renderToString(tree);
    document.body.append(container);
    expect(container.textContent).toBe("To ask, write to the operator of this site at built@example.org.");
    const errors = vi.spyOn(console, "error");
    const recoverable = vi.fn();
    let root: ReturnType<typeof hydrateRoot> | undefined;
    await act(async () => {
      root = hydrateRoot(container, tree, { onRecoverableError: recoverable });
    });
    expect(container.querySelector("a")?.getAttribute("href")).toBe("mailto:ops@example.org");
    expect(container.textContent).toBe("To ask, write to the operator of this site at ops@example.org.");
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    act(() => root?.unmount());
    container.remove();
  });
});

describe("the legal pages' dates", () => {
  it.each(PATHS)("%s shows the day its own words last changed", async (path) => {
    const { pages } = await load(undefined);
    renderPage(pages[path], path);
    const time = screen.getByText("26 November 2026");
    expect(time.tagName).toBe("TIME");
    expect(time.getAttribute("datetime")).toBe("2026-11-26");
    expect(time.parentElement?.textContent).toBe("Last updated 26 November 2026");
  });
});
