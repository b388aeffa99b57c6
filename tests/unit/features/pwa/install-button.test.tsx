import { act, cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InstallButton } from "#src/features/pwa/install-button.tsx";
import { listenForInstallPrompt } from "#src/features/pwa/install-prompt.ts";

afterEach(cleanup);

/** What Chromium dispatches when the app may be installed. */
function installOffer(outcome: "accepted" | "dismissed") {
  const event = new Event("beforeinstallprompt", { cancelable: true }) as Event & Record<string, unknown>;
  event.prompt = vi.fn(async () => undefined);
  event.userChoice = Promise.resolve({ outcome });
  return event;
}

describe("install button", () => {
  it("appears only while the browser offers installation, and hands the offer back once", async () => {
    const target = new EventTarget();
    listenForInstallPrompt(target as unknown as Window);
    render(<InstallButton />);
    expect(screen.queryByRole("button", { name: "Install app" })).toBeNull();

    const offer = installOffer("accepted");
    act(() => void target.dispatchEvent(offer));
    expect(offer.defaultPrevented).toBe(true); // no browser mini-infobar: our button asks instead
    await userEvent.setup().click(screen.getByRole("button", { name: "Install app" }));
    expect(offer.prompt).toHaveBeenCalledOnce();
    expect(screen.queryByRole("button", { name: "Install app" })).toBeNull();
  });

  it("goes away once the app is installed", () => {
    const target = new EventTarget();
    listenForInstallPrompt(target as unknown as Window);
    render(<InstallButton />);
    act(() => void target.dispatchEvent(installOffer("dismissed")));
    expect(screen.getByRole("button", { name: "Install app" })).toBeTruthy();
    act(() => void target.dispatchEvent(new Event("appinstalled")));
    expect(screen.queryByRole("button", { name: "Install app" })).toBeNull();
  });
});
