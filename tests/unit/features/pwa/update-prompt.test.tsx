import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UpdatePrompt } from "#src/features/pwa/update-prompt.tsx";
import { registerServiceWorker } from "#src/lib/service-worker.ts";

afterEach(cleanup);

describe("update prompt", () => {
  it("offers a reload when a new service worker waits, and tells it to take over", async () => {
    const waiting = { postMessage: vi.fn(), scriptURL: new URL("/sw.js", window.location.href).href };
    const container = {
      controller: {},
      register: vi.fn(async () => ({ waiting, addEventListener: vi.fn() })),
      addEventListener: vi.fn(),
    };
    Object.defineProperty(navigator, "serviceWorker", { value: container, configurable: true });
    render(<UpdatePrompt />);
    expect(screen.queryByText("A new version of PromptCanvas is ready.")).toBeNull();
    await act(async () => {
      await registerServiceWorker();
    });
    // The notice's code loads once a new version waits.
    expect(await screen.findByText("A new version of PromptCanvas is ready.")).toBeTruthy();
    await userEvent.setup().click(screen.getByRole("button", { name: "Reload" }));
    // workbox-window's messageSkipWaiting: the message, with a port for the answer.
    expect(waiting.postMessage).toHaveBeenCalledWith({ type: "SKIP_WAITING" }, [expect.anything()]);
    expect(container.addEventListener).toHaveBeenCalledWith("controllerchange", expect.any(Function));
  });
});
