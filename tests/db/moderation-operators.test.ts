// Operators and publishing (migrations 20261126130000_moderation and 20261126130100_moderation_calls):
// only an operator (app_metadata.role in the token and in auth.users) reads the queue, the actions and the
// terms, and restores, unpublishes or suspends; every action is recorded; the owner reads why their image
// was removed; publishing is the server's, and nobody publishes for a suspended owner. Acted as owner,
// stranger, visitor, operator and service role.
import { beforeAll, expect, it } from "vitest";
import { describeDb, sqlState, type TestUser } from "../support/db.ts";
import { generationFor, insertAs } from "./fixtures.ts";
import {
  createOperator,
  galleryShows,
  HIDDEN,
  moderate,
  report,
  revokeOperator,
  SHOWN,
  storedImage,
} from "./moderation-fixtures.ts";

const DAY_MS = 24 * 3600 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

describeDb("operators and publishing", (ctx) => {
  let owner: TestUser;
  let stranger: TestUser;
  let operator: TestUser;

  beforeAll(async () => {
    owner = await ctx.db.createUser();
    stranger = await ctx.db.createUser();
    operator = await createOperator(ctx.db);
  });

  const publishAs = (actor: TestUser | "service", id: string) =>
    ctx.db.run(actor, "update public.generations set is_public = true where id = $1 returning is_public", [id]);
  const stateOf = async (id: string) =>
    (
      await ctx.db.query(
        "select is_public, held_at, flagged_at, removed_at, removed_reason from public.generations where id = $1",
        [id],
      )
    )[0];

  it("refuses a client's publish, keeps its unpublish, and publishes for the service role", async () => {
    const image = await storedImage(ctx.db, owner, false);
    expect(await sqlState(publishAs(owner, image.id))).toBe("42501");
    expect(await sqlState(insertAs(ctx.db, owner, "generations", generationFor(owner, { is_public: true })))).toBe(
      "42501",
    );
    expect(await publishAs("service", image.id)).toEqual([{ is_public: true }]);
    expect(
      await ctx.db.run(
        owner,
        "update public.generations set is_public = false, is_saved = true where id = $1 returning is_public",
        [image.id],
      ),
    ).toEqual([{ is_public: false }]);
    // A stranger's patch finds no row to change.
    expect(await publishAs(stranger, image.id)).toEqual([]);
  });

  it("tells operators apart by the token's role and auth.users together; a revoked one is refused at once", async () => {
    const isOperator = async (actor: TestUser | "anon" | "service") =>
      (await ctx.db.run(actor, "select public.is_operator() as yes"))[0].yes;
    expect(await isOperator(operator)).toBe(true);
    expect(await isOperator(owner)).toBe(false);
    expect(await isOperator("anon")).toBe(false);
    expect(await isOperator("service")).toBe(false);
    // A token that claims the role for a person auth.users does not name as an operator is not one.
    const pretender = { ...stranger, claims: { ...stranger.claims, app_metadata: { role: "operator" } } };
    expect(await isOperator(pretender)).toBe(false);
    expect(await sqlState(ctx.db.run(pretender, "select * from public.moderation_queue()"))).toBe("42501");

    const former = await createOperator(ctx.db);
    expect(await isOperator(former)).toBe(true);
    await revokeOperator(ctx.db, former);
    expect(await isOperator(former)).toBe(false);
    expect(await ctx.db.run(former, "select term from public.moderation_terms")).toEqual([]);
  });

  it("lets only operators call the queue and moderate_generation", async () => {
    const image = await storedImage(ctx.db, owner);
    for (const actor of [owner, stranger, "anon" as const]) {
      expect(await sqlState(ctx.db.run(actor, "select * from public.moderation_queue()"))).toBe("42501");
      expect(await sqlState(moderate(ctx.db, actor, image.id, "unpublish", "spam"))).toBe("42501");
    }
    expect(await sqlState(moderate(ctx.db, "service", image.id, "unpublish", "spam"))).toBe("42501");
    expect(await stateOf(image.id)).toMatchObject({ is_public: true, removed_at: null });
  });

  it("lists reported, flagged and held images in the queue, the newest event first, with reports and owner", async () => {
    const reported = await storedImage(ctx.db, owner);
    const flagged = await storedImage(ctx.db, owner, false);
    const quiet = await storedImage(ctx.db, owner);
    await report(ctx.db, stranger, reported.id, "hate", "a slur on the sign");
    await ctx.db.run(
      "service",
      `update public.generations set flagged_at = now(), moderation_scores = '{"Porn":0.93,"Neutral":0.02}' where id = $1`,
      [flagged.id],
    );
    const queue = await ctx.db.run(operator, "select * from public.moderation_queue()");
    const ids = queue.map((r) => r.generation_id);
    expect(ids.indexOf(flagged.id)).toBeLessThan(ids.indexOf(reported.id));
    expect(ids).not.toContain(quiet.id);
    const entry = queue.find((r) => r.generation_id === reported.id);
    expect(entry).toMatchObject({
      owner_id: owner.id,
      owner_email: owner.email,
      prompt: "a harbour of red boats at dusk",
      image_path: reported.path,
      report_count: 1,
      reasons: ["hate"],
      held_at: null,
    });
    expect(entry?.reports).toEqual([expect.objectContaining({ reason: "hate", note: "a slur on the sign" })]);
    expect(queue.find((r) => r.generation_id === flagged.id)).toMatchObject({
      is_public: false,
      moderation_scores: { Porn: 0.93, Neutral: 0.02 },
      report_count: 0,
    });
    // An operator views a flagged image, which is not public, to review it; nobody else but its owner does.
    expect((await galleryShows(ctx.db, operator, flagged)).image).toBe(true);
    expect(await galleryShows(ctx.db, stranger, flagged)).toEqual(HIDDEN);
  });

  it("restores a held image: back in the gallery, its reports reviewed and out of the queue, the action recorded", async () => {
    const image = await storedImage(ctx.db, owner);
    for (let i = 0; i < 3; i++) await report(ctx.db, await ctx.db.createUser(), image.id, "violence");
    expect(await galleryShows(ctx.db, "anon", image)).toEqual(HIDDEN);
    const [{ result }] = await moderate(ctx.db, operator, image.id, "restore", null);
    expect(result).toMatchObject({ action: "restore", is_public: true, held_at: null });
    expect(await galleryShows(ctx.db, "anon", image)).toEqual(SHOWN);
    const [open] = await ctx.db.query(
      "select count(*)::int as n from public.generation_reports where generation_id = $1 and reviewed_at is null",
      [image.id],
    );
    expect(open.n).toBe(0);
    const queue = await ctx.db.run(operator, "select generation_id from public.moderation_queue()");
    expect(queue.map((r) => r.generation_id)).not.toContain(image.id);
    const actions = await ctx.db.run(operator, "select * from public.moderation_actions where generation_id = $1", [
      image.id,
    ]);
    expect(actions).toEqual([
      expect.objectContaining({ owner_id: owner.id, operator_id: operator.id, action: "restore", reason: null }),
    ]);
    expect(actions[0].created_at).toBeInstanceOf(Date);
  });

  it("restores a flagged image by publishing it", async () => {
    const image = await storedImage(ctx.db, owner, false);
    await ctx.db.run("service", "update public.generations set flagged_at = now() where id = $1", [image.id]);
    await moderate(ctx.db, operator, image.id, "restore", "a cat, not what the check thought");
    expect(await stateOf(image.id)).toMatchObject({ is_public: true, flagged_at: null });
    expect(await galleryShows(ctx.db, stranger, image)).toEqual(SHOWN);
  });

  it("unpublishes with a reason the owner reads, and nobody publishes that image again", async () => {
    const image = await storedImage(ctx.db, owner);
    await moderate(ctx.db, operator, image.id, "unpublish", "  Graphic gore  ");
    const [own] = await ctx.db.run(
      owner,
      "select is_public, removed_at, removed_reason from public.generations where id = $1",
      [image.id],
    );
    expect(own).toMatchObject({ is_public: false, removed_reason: "Graphic gore" });
    expect(own.removed_at).toBeInstanceOf(Date);
    expect(await galleryShows(ctx.db, stranger, image)).toEqual(HIDDEN);
    expect(await galleryShows(ctx.db, "anon", image)).toEqual(HIDDEN);
    expect(await galleryShows(ctx.db, owner, image)).toEqual({ row: true, search: false, image: true });
    expect(await sqlState(publishAs("service", image.id))).toBe("PT403");
    expect(await sqlState(publishAs(owner, image.id))).toBe("42501");
    const [action] = await ctx.db.run(
      operator,
      "select action, reason from public.moderation_actions where generation_id = $1",
      [image.id],
    );
    expect(action).toEqual({ action: "unpublish", reason: "Graphic gore" });
  });

  it("suspends an owner from publishing until a time, even through the service role, and records it", async () => {
    const suspended = await ctx.db.createUser();
    const image = await storedImage(ctx.db, suspended);
    const other = await storedImage(ctx.db, suspended, false);
    const until = inDays(7);
    await moderate(ctx.db, operator, image.id, "suspend", "Repeated explicit images", until);
    expect(await stateOf(image.id)).toMatchObject({ is_public: false, removed_reason: "Repeated explicit images" });
    expect(await sqlState(publishAs("service", other.id))).toBe("PT403");
    expect(await stateOf(other.id)).toMatchObject({ is_public: false });
    // A generation made while suspended, with publish-by-default on, is stored private rather than lost.
    const made = generationFor(suspended, { is_public: true });
    await insertAs(ctx.db, "service", "generations", made);
    expect(await stateOf(made.id)).toMatchObject({ is_public: false });

    const own = await ctx.db.run(suspended, "select until, reason from public.publishing_suspensions");
    expect(own).toEqual([{ until: new Date(until), reason: "Repeated explicit images" }]);
    expect(await ctx.db.run(stranger, "select user_id from public.publishing_suspensions")).toEqual([]);
    expect(await sqlState(ctx.db.run("anon", "select user_id from public.publishing_suspensions"))).toBe("42501");
    const all = await ctx.db.run(operator, "select user_id, by from public.publishing_suspensions where user_id = $1", [
      suspended.id,
    ]);
    expect(all).toEqual([{ user_id: suspended.id, by: operator.id }]);
    const [action] = await ctx.db.run(
      operator,
      "select action, suspended_until from public.moderation_actions where generation_id = $1",
      [image.id],
    );
    expect(action).toEqual({ action: "suspend", suspended_until: new Date(until) });
    expect(await sqlState(ctx.db.run(suspended, "delete from public.publishing_suspensions"))).toBe("42501");

    // Once the suspension has ended, the server publishes for the owner again.
    await ctx.db.query(
      "update public.publishing_suspensions set until = now() - interval '1 second' where user_id = $1",
      [suspended.id],
    );
    expect(await publishAs("service", other.id)).toEqual([{ is_public: true }]);
  });

  it("restores a suspended owner's flagged image without publishing it", async () => {
    const person = await ctx.db.createUser();
    const first = await storedImage(ctx.db, person);
    const flagged = await storedImage(ctx.db, person, false);
    await ctx.db.run("service", "update public.generations set flagged_at = now() where id = $1", [flagged.id]);
    await moderate(ctx.db, operator, first.id, "suspend", "Spam", inDays(1));
    const [{ result }] = await moderate(ctx.db, operator, flagged.id, "restore", null);
    expect(result).toMatchObject({ is_public: false, flagged_at: null });
  });

  it("refuses bad operator input with 4xx states and changes nothing", async () => {
    const image = await storedImage(ctx.db, owner);
    const cases: [string, string | null, string | null, string][] = [
      ["ban", "spam", null, "22023"],
      ["", "spam", null, "22023"],
      ["unpublish", null, null, "22023"],
      ["unpublish", "   ", null, "22023"],
      ["suspend", "spam", null, "22023"],
      ["suspend", "spam", new Date(Date.now() - DAY_MS).toISOString(), "22023"],
      ["unpublish", "spam", inDays(1), "22023"],
      ["unpublish", "x".repeat(501), null, "22001"],
    ];
    for (const [action, reason, until, state] of cases) {
      expect(await sqlState(moderate(ctx.db, operator, image.id, action, reason, until)), action).toBe(state);
    }
    expect(await sqlState(moderate(ctx.db, operator, crypto.randomUUID(), "unpublish", "spam"))).toBe("PT404");
    expect(await stateOf(image.id)).toMatchObject({ is_public: true, removed_at: null });
    const recorded = await ctx.db.run(operator, "select id from public.moderation_actions where generation_id = $1", [
      image.id,
    ]);
    expect(recorded).toEqual([]);
  });

  it("lets only operators read the actions, which nobody writes directly", async () => {
    const image = await storedImage(ctx.db, owner);
    await moderate(ctx.db, operator, image.id, "unpublish", "Spam");
    const read = "select action from public.moderation_actions where generation_id = $1";
    expect(await ctx.db.run(owner, read, [image.id])).toEqual([]);
    expect(await ctx.db.run(stranger, read, [image.id])).toEqual([]);
    expect(await sqlState(ctx.db.run("anon", read, [image.id]))).toBe("42501");
    expect(await ctx.db.run(operator, read, [image.id])).toEqual([{ action: "unpublish" }]);
    const forge = `insert into public.moderation_actions (generation_id, owner_id, action) values ($1, $2, 'restore')`;
    expect(await sqlState(ctx.db.run(operator, forge, [image.id, owner.id]))).toBe("42501");
    expect(await sqlState(ctx.db.run(operator, "delete from public.moderation_actions"))).toBe("42501");
  });

  it("lets operators keep the extra terms, stored lowercased and trimmed, and the service role read them", async () => {
    const add = (actor: TestUser | "anon", term: string) =>
      ctx.db.run(actor, "insert into public.moderation_terms (term) values ($1) returning term, added_by", [term]);
    expect(await add(operator, "  Gr0ss Word ")).toEqual([{ term: "gr0ss word", added_by: operator.id }]);
    expect(await sqlState(add(operator, "GR0SS WORD"))).toBe("23505");
    expect(await sqlState(add(operator, "   "))).toBe("23514");
    expect(await sqlState(add(operator, "w".repeat(65)))).toBe("23514");
    expect(await sqlState(add(owner, "sneaky"))).toBe("42501");
    expect(await sqlState(add("anon", "sneaky"))).toBe("42501");
    expect(
      await sqlState(
        ctx.db.run(operator, "insert into public.moderation_terms (term, added_by) values ('x', $1)", [owner.id]),
      ),
    ).toBe("42501");

    expect(await ctx.db.run(owner, "select term from public.moderation_terms")).toEqual([]);
    expect(await sqlState(ctx.db.run("anon", "select term from public.moderation_terms"))).toBe("42501");
    expect(await ctx.db.run("service", "select term from public.moderation_terms")).toEqual([{ term: "gr0ss word" }]);
    expect(await ctx.db.run(owner, "delete from public.moderation_terms returning term")).toEqual([]);
    expect(await sqlState(ctx.db.run(operator, "update public.moderation_terms set term = 'y'"))).toBe("42501");
    expect(await ctx.db.run(operator, "delete from public.moderation_terms returning term")).toEqual([
      { term: "gr0ss word" },
    ]);
  });

  it("forgets a person's suspension and the actions on their images with their account", async () => {
    const leaving = await ctx.db.createUser();
    const image = await storedImage(ctx.db, leaving);
    await moderate(ctx.db, operator, image.id, "suspend", "Spam", inDays(3));
    await ctx.db.query("delete from auth.users where id = $1", [leaving.id]);
    const [left] = await ctx.db.query(
      `select (select count(*)::int from public.publishing_suspensions where user_id = $1) as suspensions,
              (select count(*)::int from public.moderation_actions where owner_id = $1) as actions`,
      [leaving.id],
    );
    expect(left).toEqual({ suspensions: 0, actions: 0 });
  });
});
