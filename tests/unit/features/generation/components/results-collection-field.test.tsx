// "Add new results to" (decision 157): the generator's select of the person's hand-made collections, hidden
// while they have none, "None" by default, remembered on this device, and back to
// "None" once the chosen collection is deleted.
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { db } from "#src/db/db.ts";
import { deleteCollection, saveCollection } from "#src/db/collections.ts";
import { ResultsCollectionField } from "#src/features/generation/components/results-collection-field.tsx";
import { RESULTS_COLLECTION_KEY, ui } from "#src/state/ui-store.ts";
import { signedInDevice } from "../../../../support/signed-in.ts";

signedInDevice();

async function made(name: string, smart = false) {
  const r = await saveCollection("u1", { name, filter: smart ? { saved: true } : null }, undefined, db);
  if (!r.ok) throw new Error(r.message);
  return r.collection;
}

describe("Add new results to", () => {
  it("is hidden while the person has no hand-made collection, and shows once they have one", async () => {
    await made("Smart only", true);
    const { container } = render(<ResultsCollectionField userId="u1" />);
    await new Promise((r) => setTimeout(r, 50));
    expect(container.innerHTML).toBe("");
    // The same field shows once there is one to choose.
    await made("Trips");
    expect(await screen.findByLabelText("Add new results to")).toBeTruthy();
  });

  it("lists hand-made collections by name after None, is chosen, remembered, and forgets a deleted one", async () => {
    const trips = await made("Trips");
    await made("Best");
    await made("Smart", true);
    render(<ResultsCollectionField userId="u1" />);
    const select = (await screen.findByLabelText("Add new results to")) as HTMLSelectElement;
    expect([...select.options].map((o) => o.text)).toEqual(["None", "Best", "Trips"]);
    expect(select.value).toBe("");
    await userEvent.selectOptions(select, "Trips");
    expect(select.value).toBe(trips.id);
    expect(ui.resultsCollections).toEqual({ u1: trips.id });
    expect(JSON.parse(localStorage.getItem(RESULTS_COLLECTION_KEY) ?? "{}")).toEqual({ u1: trips.id });
    await deleteCollection("u1", trips.id, db);
    await waitFor(() => expect(select.value).toBe(""));
  });
});
