// The collections pages over this device's Dexie (fake-indexeddb), drawn with the library's real parts as the
// router hands them in: the list (count or "Smart", rename, delete with a confirmation), a hand-made
// collection's images newest first with its words filter and "Remove from collection", a smart collection's
// chips and exactly its matches, and an unknown id.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { Route, Switch } from "wouter";
import { addToCollection, listCollections, saveCollection } from "#src/db/collections.ts";
import { db } from "#src/db/db.ts";
import { putImage } from "#src/db/images.ts";
import CollectionPage from "#src/features/collections/collection-page.tsx";
import CollectionsPage from "#src/features/collections/collections-page.tsx";
import { GenerationGrid } from "#src/features/library/generation-grid.tsx";
import { FilterFields } from "#src/features/library/library-filters.tsx";
import { OpenGeneration } from "#src/features/library/open-generation.tsx";
import { SelectionBar } from "#src/features/library/selection-bar.tsx";
import { renderAt } from "../../../support/render-at.tsx";
import { signedInDevice } from "../../../support/signed-in.ts";
import { row, seed } from "../library/seed.ts";

const PARTS = { Grid: GenerationGrid, SelectionBar, OpenGeneration, FilterFields };

signedInDevice();

async function threeImages() {
  const rows = [
    row({ prompt: "a red fox in snow", style: "watercolor", is_saved: true }),
    row({ prompt: "a red fox at night", style: "anime", is_saved: true }),
    row({ prompt: "a grey owl in snow", style: "watercolor", is_saved: false }),
  ];
  await seed(rows);
  return rows;
}

async function made(name: string, filter: Parameters<typeof saveCollection>[1]["filter"] = null) {
  const saved = await saveCollection("u1", { name, filter });
  if (!saved.ok) throw new Error(saved.message);
  return saved.collection;
}

const tileNames = (list: HTMLElement) =>
  within(list)
    .getAllByRole("button", { name: /^Open: / })
    .map((b) => b.getAttribute("aria-label"));

describe("the collections list", () => {
  it("lists each collection with its count or Smart, renames one and deletes one after a confirmation", async () => {
    const [fox, night] = await threeImages();
    const trip = await made("Trip");
    await addToCollection("u1", trip.id, [fox.id, night.id]);
    await made("Saved watercolours", { style: "watercolor", saved: true });
    renderAt("/collections", <CollectionsPage parts={PARTS} />);
    const list = await screen.findByRole("list", { name: "Your collections" });
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(2));
    const [smart, handMade] = within(list).getAllByRole("listitem");
    expect(within(smart).getByRole("link").textContent).toBe("Saved watercolours");
    expect(smart.textContent).toContain("Smart");
    await waitFor(() => expect(handMade.textContent).toContain("2 images"));

    await userEvent.click(screen.getByRole("button", { name: "Rename Trip" }));
    const form = screen.getByRole("dialog", { name: "Rename collection" });
    await userEvent.clear(within(form).getByLabelText("Name"));
    await userEvent.type(within(form).getByLabelText("Name"), "Foxes");
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    expect(await within(list).findByRole("link", { name: "Foxes" })).toBeTruthy();

    await userEvent.click(screen.getByRole("button", { name: "Delete Foxes" }));
    const confirm = screen.getByRole("dialog", { name: "Delete “Foxes”?" });
    await userEvent.click(within(confirm).getByRole("button", { name: "Delete collection" }));
    await waitFor(() => expect(within(list).queryByRole("link", { name: "Foxes" })).toBeNull());
    expect((await listCollections("u1")).map((c) => c.name)).toEqual(["Saved watercolours"]);
    expect(await db.generations.count()).toBe(3);
  });

  it("makes a smart collection from its form, refusing a filter that names nothing", async () => {
    renderAt("/collections", <CollectionsPage parts={PARTS} />);
    await userEvent.click(await screen.findByRole("button", { name: "New smart collection" }));
    const form = screen.getByRole("dialog", { name: "New smart collection" });
    await userEvent.type(within(form).getByLabelText("Name"), "Owls");
    await userEvent.click(within(form).getByRole("button", { name: "Create" }));
    expect(within(form).getByRole("alert").textContent).toBe("Choose at least one thing the collection filters on");
    await userEvent.type(within(form).getByLabelText("Words of the prompt"), "owl");
    await userEvent.selectOptions(within(form).getByLabelText("Published"), "no");
    await userEvent.type(within(form).getByLabelText("Made in the last (days)"), "30");
    await userEvent.click(within(form).getByRole("button", { name: "Create" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const [owls] = await listCollections("u1");
    expect(owls).toMatchObject({ name: "Owls", filter: { text: "owl", published: false, withinDays: 30 } });
  });
});

describe("one collection", () => {
  it("shows a hand-made collection's images newest first, filters them by words and removes a selected one", async () => {
    const [fox, night, owl] = await threeImages();
    const trip = await made("Trip");
    await addToCollection("u1", trip.id, [owl.id, fox.id]);
    renderAt(`/collections/${trip.id}`, <CollectionPage parts={PARTS} />);
    const grid = await screen.findByRole("list", { name: "Images in Trip" });
    await waitFor(() => expect(tileNames(grid)).toEqual([`Open: ${owl.prompt}`, `Open: ${fox.prompt}`]));
    expect(tileNames(grid)).not.toContain(`Open: ${night.prompt}`);

    await userEvent.type(screen.getByRole("searchbox", { name: "Filter by words" }), "fox");
    await waitFor(() =>
      expect(tileNames(screen.getByRole("list", { name: "Images in Trip" }))).toEqual([`Open: ${fox.prompt}`]),
    );
    await userEvent.click(screen.getByRole("checkbox", { name: `Select: ${fox.prompt}` }));
    await userEvent.click(screen.getByRole("button", { name: "Remove from collection" }));
    expect(await screen.findByText("No images match.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Delete" })).toBeNull();
  });

  it("shows a smart collection's filter as chips and exactly the images it matches", async () => {
    const [fox] = await threeImages();
    const smart = await made("Saved watercolours", { style: "watercolor", saved: true });
    renderAt(`/collections/${smart.id}`, <CollectionPage parts={PARTS} />);
    const chips = await screen.findByRole("list", { name: "Filter" });
    expect(
      within(chips)
        .getAllByRole("listitem")
        .map((c) => c.textContent),
    ).toEqual(["Style: Watercolor", "Saved"]);
    const grid = await screen.findByRole("list", { name: "Images in Saved watercolours" });
    await waitFor(() => expect(tileNames(grid)).toEqual([`Open: ${fox.prompt}`]));
    expect(screen.queryByRole("button", { name: "Remove from collection" })).toBeNull();

    await userEvent.click(screen.getByRole("button", { name: "Edit filter" }));
    const form = screen.getByRole("dialog", { name: "Edit filter" });
    await userEvent.selectOptions(within(form).getByLabelText("Saved"), "any");
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(tileNames(screen.getByRole("list", { name: "Images in Saved watercolours" }))).toHaveLength(2),
    );
  });

  it("opened from its card, draws the list the card read at once, then follows changes", async () => {
    const [fox, night, owl] = await threeImages();
    const trip = await made("Trip");
    await addToCollection("u1", trip.id, [owl.id, fox.id]);
    await putImage(db, owl.id, "u1", { thumbnail: "data:image/png;base64,iVBORw0KGgo=" });
    renderAt(
      "/collections",
      <Switch>
        <Route path="/collections">
          <CollectionsPage parts={PARTS} />
        </Route>
        <Route path="/collections/:id">
          <CollectionPage parts={PARTS} />
        </Route>
      </Switch>,
    );
    const cards = await screen.findByRole("list", { name: "Your collections" });
    await waitFor(() => expect(within(cards).getByText("2 images")).toBeTruthy());
    // The card has read the whole list: its preview, the newest image's thumbnail, is shown.
    await waitFor(() => expect(cards.querySelector(".bg-cover")).not.toBeNull());
    fireEvent.click(within(cards).getByRole("link", { name: "Trip" }));
    // No wait: the click's render drew the images and their count, with no read of its own.
    expect(screen.queryByText("Loading the collection…")).toBeNull();
    expect(tileNames(screen.getByRole("list", { name: "Images in Trip" }))).toEqual([
      `Open: ${owl.prompt}`,
      `Open: ${fox.prompt}`,
    ]);
    expect(screen.getByText("2 images", { selector: "[role=status]" })).toBeTruthy();
    // It is read again live: an image added on this device (or arriving from another) shows.
    await addToCollection("u1", trip.id, [night.id]);
    expect(await screen.findByText("3 images", { selector: "[role=status]" }, { timeout: 3000 })).toBeTruthy();
  });

  it("says so when the collection is not there", async () => {
    renderAt("/collections/00000000-0000-4000-8000-00000000dead", <CollectionPage parts={PARTS} />);
    expect(await screen.findByRole("heading", { name: "Collection not found" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "All collections" }).getAttribute("href")).toBe("/collections");
  });
});
