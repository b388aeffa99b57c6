// 'Your styles' beside the 27 (decision 152): a premium person makes a style in the editor and picks it; a
// person below premium keeps seeing (and picking) the styles they have and is told, with a link to /pricing,
// that making them is the Pro plan's; a visitor is told the same.
import { useState } from "react";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "#src/db/db.ts";
import { saveCustomStyle } from "#src/db/custom-styles.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { storeImage } from "#src/db/images.ts";
import type { CustomStyleRecord } from "#src/db/schema.ts";
import { CustomStylePicker } from "#src/features/generation/components/custom-styles/custom-style-picker.tsx";
import { generationRow } from "../../../../support/records.ts";

afterEach(async () => {
  await db.customStyles.clear();
  await db.limits.clear();
  await db.outbox.clear();
  await db.generations.clear();
  await db.images.clear();
});

async function tier(userId: string, t: "free" | "premium") {
  await db.limits.put({
    userId,
    generationsToday: 0,
    dailyLimit: t === "free" ? 5 : 9999,
    remaining: 5,
    resetAt: "2026-11-27T00:00:00.000Z",
    tier: t,
    checkedAt: new Date().toISOString(),
  });
}

function Harness({ userId }: { userId: string | null }) {
  const [picked, setPicked] = useState<CustomStyleRecord | null>(null);
  return (
    <>
      <CustomStylePicker userId={userId} value={picked?.id ?? ""} onChange={setPicked} currentStyle="anime" />
      <output aria-label="picked">{picked?.name ?? "none"}</output>
    </>
  );
}

describe("custom style picker", () => {
  it("lets a premium person make a style in the editor, then picks it", async () => {
    await tier("p1", "premium");
    render(<Harness userId="p1" />);
    await userEvent.click(await screen.findByRole("button", { name: "New style" }));
    const dialog = await screen.findByRole("dialog", { name: "New style" });
    await userEvent.type(within(dialog).getByLabelText("Name"), "Moody film");
    await userEvent.type(within(dialog).getByLabelText("Words added to the prompt"), "35mm film, teal and orange");
    expect((within(dialog).getByLabelText("Draws on") as HTMLSelectElement).value).toBe("anime");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save style" }));
    await waitFor(() => expect(screen.getByLabelText("picked").textContent).toBe("Moody film"));
    const card = await screen.findByRole("button", { name: "Moody film" });
    expect(card.getAttribute("aria-pressed")).toBe("true");
    expect((await db.outbox.toArray()).map((e) => e.kind)).toEqual(["style.save"]);
  });

  it("keeps a lower tier's styles listed and usable, and says making them is the Pro plan's", async () => {
    await tier("f1", "free");
    await saveCustomStyle("f1", {
      name: "Kept",
      prompt: "ink wash",
      negativePrompt: "",
      baseStyle: "watercolor",
      quality: "high",
      aspectRatio: "1:1",
      preview: null,
    });
    render(<Harness userId="f1" />);
    await userEvent.click(await screen.findByRole("button", { name: "Kept" }));
    expect(screen.getByLabelText("picked").textContent).toBe("Kept");
    expect(screen.queryByRole("button", { name: "New style" })).toBeNull();
    expect(screen.getByRole("link", { name: "See plans" }).getAttribute("href")).toBe("/pricing");
    await userEvent.click(screen.getByRole("button", { name: "Edit Kept" }));
    const dialog = await screen.findByRole("dialog");
    expect((within(dialog).getByLabelText("Name") as HTMLInputElement).disabled).toBe(true);
    expect(within(dialog).queryByRole("button", { name: "Save style" })).toBeNull();
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete style" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete it for good" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Kept" })).toBeNull());
    expect(screen.getByLabelText("picked").textContent).toBe("none");
  });

  it("tells a visitor that custom styles come with the Pro plan", () => {
    render(<Harness userId={null} />);
    expect(screen.getByRole("link", { name: "See plans" }).getAttribute("href")).toBe("/pricing");
  });

  it("offers an image stored while the editor is open as a preview", async () => {
    await tier("p2", "premium");
    render(<Harness userId="p2" />);
    await userEvent.click(await screen.findByRole("button", { name: "New style" }));
    const dialog = await screen.findByRole("dialog", { name: "New style" });
    expect(await within(dialog).findByText("Your images on this device will show here to pick from.")).toBeTruthy();
    await db.generations.put(toGenerationRecord(generationRow("g-late", "p2", { prompt: "a lighthouse at dusk" })));
    await storeImage("g-late", { thumbnail: "data:image/jpeg;base64,/9j/" });
    const choice = await within(dialog).findByRole("button", {
      name: "Use the image of “a lighthouse at dusk” as the preview",
    });
    await userEvent.click(choice);
    expect(choice.getAttribute("aria-pressed")).toBe("true");
  });
});
