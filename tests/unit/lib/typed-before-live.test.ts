// Text typed into the prerendered page before the app is live is handed to the field that replaces it.
import { afterEach, describe, expect, it } from "vitest";
import { keepTypedBeforeLive, stopKeepingTyped, takeTypedBeforeLive } from "../../../src/lib/typed-before-live";

function typeInto(tag: "textarea" | "input", name: string, value: string): void {
  const el = document.createElement(tag);
  el.name = name;
  document.body.append(el);
  el.value = value;
  el.dispatchEvent(new Event("input", { bubbles: true }));
  el.remove();
}

describe("typed before live", () => {
  afterEach(() => {
    takeTypedBeforeLive("prompt");
    takeTypedBeforeLive("negative_prompt");
  });

  it("takes what a named field already holds when recording starts", () => {
    const early = document.createElement("textarea");
    early.name = "prompt";
    document.body.append(early);
    early.value = "typed before the script ran";
    keepTypedBeforeLive(document);
    early.remove();
    expect(takeTypedBeforeLive("prompt")).toBe("typed before the script ran");
  });

  it("keeps the last text typed into each named field, once, and stops recording when live", () => {
    keepTypedBeforeLive(document);
    typeInto("textarea", "prompt", "a lighthouse");
    typeInto("textarea", "prompt", "a lighthouse at dusk");
    typeInto("input", "negative_prompt", "blur");
    typeInto("input", "", "no name, not kept");
    expect(takeTypedBeforeLive("prompt")).toBe("a lighthouse at dusk");
    expect(takeTypedBeforeLive("prompt")).toBeUndefined();
    expect(takeTypedBeforeLive("negative_prompt")).toBe("blur");

    stopKeepingTyped();
    typeInto("textarea", "prompt", "typed after the app was live");
    expect(takeTypedBeforeLive("prompt")).toBeUndefined();
  });
});
