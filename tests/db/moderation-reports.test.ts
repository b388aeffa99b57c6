// Reports (migrations 20261126130000_moderation, 20261126130100_moderation_calls and
// 20261126130200_gallery_shows_only_what_is_in_it): anyone signed in reports a gallery image once with a
// reason of the content policy; it leaves the gallery at once for its reporter, and for everyone when a
// third person reports it; only operators read reports. Acted as owner, stranger, visitor and operator.
import { beforeAll, expect, it } from "vitest";
import { REPORT_NOTE_MAX_CHARS, REPORT_REASONS, REPORTS_TO_HOLD } from "#shared/vocabulary/moderation.ts";
import { describeDb, sqlState, type TestUser } from "../support/db.ts";
import { createOperator, galleryShows, HIDDEN, report, SHOWN, storedImage } from "./moderation-fixtures.ts";

describeDb("reports of gallery images", (ctx) => {
  let owner: TestUser;
  let stranger: TestUser;
  let operator: TestUser;
  let reporters: TestUser[];

  beforeAll(async () => {
    owner = await ctx.db.createUser();
    stranger = await ctx.db.createUser();
    operator = await createOperator(ctx.db);
    reporters = [];
    for (let i = 0; i < REPORTS_TO_HOLD + 1; i++) reporters.push(await ctx.db.createUser());
  });

  const reportRows = (id: string) =>
    ctx.db.query("select reporter_id, reason, note from public.generation_reports where generation_id = $1", [id]);

  it("keeps the reasons in SQL equal to the vocabulary's, in the content policy's order", async () => {
    const rows = await ctx.db.run<{ reason: string }>(
      "anon",
      "select reason from public.report_reasons order by position",
    );
    expect(rows.map((r) => r.reason)).toEqual([...REPORT_REASONS]);
  });

  it("counts a second report by the same person once, answering as the first did", async () => {
    const image = await storedImage(ctx.db, owner);
    const [first] = await report(ctx.db, reporters[0], image.id, "hate", "  a slur on the sign  ");
    const [again] = await report(ctx.db, reporters[0], image.id, "violence", "changed my mind");
    expect(again.result).toEqual(first.result);
    expect(first.result).toMatchObject({ generation_id: image.id, reason: "hate" });
    expect(await reportRows(image.id)).toEqual([
      { reporter_id: reporters[0].id, reason: "hate", note: "a slur on the sign" },
    ]);
  });

  it("hides a reported image from its reporter at once in every gallery read, and from nobody else", async () => {
    const image = await storedImage(ctx.db, owner);
    expect(await galleryShows(ctx.db, reporters[0], image)).toEqual(SHOWN);
    await report(ctx.db, reporters[0], image.id, "sexual");
    expect(await galleryShows(ctx.db, reporters[0], image)).toEqual(HIDDEN);
    expect(await galleryShows(ctx.db, stranger, image)).toEqual(SHOWN);
    expect(await galleryShows(ctx.db, "anon", image)).toEqual(SHOWN);
    expect(await galleryShows(ctx.db, owner, image)).toEqual(SHOWN);
  });

  it(`takes an image out of the gallery for everyone at the ${REPORTS_TO_HOLD}rd different reporter, not before`, async () => {
    const image = await storedImage(ctx.db, owner);
    for (const person of reporters.slice(0, REPORTS_TO_HOLD - 1)) await report(ctx.db, person, image.id);
    // One person reporting many times is still one reporter.
    await report(ctx.db, reporters[0], image.id);
    const [before] = await ctx.db.query("select held_at from public.generations where id = $1", [image.id]);
    expect(before.held_at).toBeNull();
    expect(await galleryShows(ctx.db, "anon", image)).toEqual(SHOWN);

    await report(ctx.db, reporters[REPORTS_TO_HOLD - 1], image.id, "minors");
    const [after] = await ctx.db.query("select held_at, is_public from public.generations where id = $1", [image.id]);
    expect(after.held_at).toBeInstanceOf(Date);
    expect(after.is_public).toBe(true);
    expect(await galleryShows(ctx.db, "anon", image)).toEqual(HIDDEN);
    expect(await galleryShows(ctx.db, stranger, image)).toEqual(HIDDEN);
    // The owner keeps the image and sees that it is held; search is the gallery, so it is not there.
    expect(await galleryShows(ctx.db, owner, image)).toEqual({ row: true, search: false, image: true });
    const [own] = await ctx.db.run(owner, "select held_at from public.generations where id = $1", [image.id]);
    expect(own.held_at).toBeInstanceOf(Date);
    // An operator reads the held row and views its image, to review it.
    expect(await galleryShows(ctx.db, operator, image)).toEqual({ row: true, search: false, image: true });
    // A held image takes no more reports: it is no longer in the gallery.
    expect(await sqlState(report(ctx.db, reporters[REPORTS_TO_HOLD], image.id))).toBe("PT404");
  });

  it("refuses reports of images that are missing, private or someone's own, and bad reasons and notes", async () => {
    const published = await storedImage(ctx.db, owner);
    const hidden = await storedImage(ctx.db, owner, false);
    const person = reporters[1];
    expect(await sqlState(report(ctx.db, person, crypto.randomUUID()))).toBe("PT404");
    expect(await sqlState(report(ctx.db, person, hidden.id))).toBe("PT404");
    expect(await sqlState(report(ctx.db, owner, published.id))).toBe("22023");
    for (const reason of ["", "Violence", "spam", "violence ", "' or 1=1 --"]) {
      expect(await sqlState(report(ctx.db, person, published.id, reason)), reason).toBe("22023");
    }
    expect(await sqlState(ctx.db.run(person, "select public.report_generation($1, null)", [published.id]))).toBe(
      "22023",
    );
    const longest = "é".repeat(REPORT_NOTE_MAX_CHARS);
    expect(await sqlState(report(ctx.db, person, published.id, "hate", `${longest}!`))).toBe("22001");
    expect(await sqlState(report(ctx.db, "anon", published.id))).toBe("42501");
    expect(await sqlState(report(ctx.db, "service", published.id))).toBe("42501");
    expect(await reportRows(published.id)).toEqual([]);
    // A note of exactly the limit is taken; a blank note is no note.
    await report(ctx.db, person, published.id, "hate", longest);
    await report(ctx.db, stranger, published.id, "hate", "   ");
    const notes = (await reportRows(published.id)).map((r) => r.note?.length ?? null).sort();
    expect(notes).toEqual([REPORT_NOTE_MAX_CHARS, null]);
  });

  it("lets only operators read reports, and nobody write them but through report_generation", async () => {
    const image = await storedImage(ctx.db, owner);
    await report(ctx.db, reporters[2], image.id, "deception", "a fake photo of a flood");
    const read = (actor: TestUser | "anon") =>
      ctx.db.run(actor, "select reporter_id, reason from public.generation_reports where generation_id = $1", [
        image.id,
      ]);
    expect(await read(reporters[2])).toEqual([]);
    expect(await read(owner)).toEqual([]);
    expect(await read(stranger)).toEqual([]);
    expect(await sqlState(read("anon"))).toBe("42501");
    expect(await read(operator)).toEqual([{ reporter_id: reporters[2].id, reason: "deception" }]);

    const forged = "insert into public.generation_reports (generation_id, reporter_id, reason) values ($1, $2, 'hate')";
    for (const actor of [reporters[3], operator]) {
      expect(await sqlState(ctx.db.run(actor, forged, [image.id, actor.id]))).toBe("42501");
    }
    expect(await sqlState(ctx.db.run(operator, "delete from public.generation_reports"))).toBe("42501");
    expect(await sqlState(ctx.db.run(operator, "update public.generation_reports set reviewed_at = now()"))).toBe(
      "42501",
    );
  });

  it("forgets a person's reports with their account, and an image's reports with the image", async () => {
    const leaving = await ctx.db.createUser();
    const image = await storedImage(ctx.db, owner);
    await report(ctx.db, leaving, image.id);
    await report(ctx.db, stranger, image.id);
    await ctx.db.query("delete from auth.users where id = $1", [leaving.id]);
    expect((await reportRows(image.id)).map((r) => r.reporter_id)).toEqual([stranger.id]);
    await ctx.db.run(owner, "delete from public.generations where id = $1", [image.id]);
    expect(await reportRows(image.id)).toEqual([]);
  });
});
