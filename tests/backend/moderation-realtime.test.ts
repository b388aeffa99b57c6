// The gallery rule on realtime's postgres_changes, on PGlite and on PostgreSQL: a change of a gallery image
// reaches visitors, but not the person who reported it; once three people have reported it (held), its
// changes reach its owner and operators and no visitor; an operator's restore brings them back. Realtime
// applies the generations select policy to each subscriber (migration 20261126130200), so this is the same
// rule as the table's, search's and the images'.
import { afterAll, beforeAll, expect, it } from "vitest";
import { main as operatorCommand } from "../../scripts/operator.mjs";
import { clientsFor, describeOnBackends, people } from "../support/backend-suite.ts";
import { type NewUser, serviceClient } from "../support/clients.ts";
import { listenChanges, sleep, waitFor } from "../support/realtime.ts";

/** How long "never receives" waits after the rightful subscribers got the change. */
const SILENCE_MS = 1500;

type Change = { eventType: string; new: Record<string, unknown> };

describeOnBackends("realtime and the gallery rule on $title", { prefix: "moderation_rt" }, (b, { skip }) => {
  const [owner, operator, ...reporters] = people(
    b,
    "rt-owner",
    "rt-operator",
    ...[0, 1, 2].map((i) => `rt-reporter-${i}`),
  );
  const { anon: visitor } = clientsFor(b);

  beforeAll(async () => {
    if (skip) return;
    const env = { SUPABASE_URL: b.url, SUPABASE_SERVICE_ROLE_KEY: b.serviceRoleKey };
    expect(await operatorCommand(["grant", operator.email], { env, out: () => {}, err: () => {} })).toBe(0);
    await operator.client.auth.signInWithPassword({ email: operator.email, password: operator.password });
  });
  afterAll(async () => {
    if (!skip) await visitor.removeAllChannels();
  });

  it.skipIf(skip)(
    "sends a held image's changes to its owner and operators only, and a reported one's not to its reporter",
    async () => {
      const server = serviceClient(b);
      const id = crypto.randomUUID();
      const row = { id, user_id: owner.id, prompt: "a lantern festival", provider: "builtin", model: "procedural-v1" };
      expect(
        (await server.from("generations").insert({ ...row, image_path: `${owner.id}/${id}.png`, is_public: true }))
          .error,
      ).toBeNull();

      const binding = { event: "UPDATE", schema: "public", table: "generations", filter: `id=eq.${id}` };
      const listeners = {
        visitor: await listenChanges<Change>(visitor, "rt-visitor", binding),
        reporter: await listenChanges<Change>(reporters[0].client, "rt-reporter", binding),
        owner: await listenChanges<Change>(owner.client, "rt-owner", binding),
        operator: await listenChanges<Change>(operator.client, "rt-operator", binding),
      };
      const heard = () => Object.fromEntries(Object.entries(listeners).map(([k, l]) => [k, l.changes.length]));
      const report = (u: NewUser) => u.client.rpc("report_generation", { p_generation_id: id, p_reason: "violence" });

      expect((await report(reporters[0])).error).toBeNull();
      await server
        .from("generations")
        .update({ moderation_scores: { Neutral: 0.97 } })
        .eq("id", id);
      await waitFor(() => listeners.visitor.changes[0], "the visitor's UPDATE");
      await waitFor(() => listeners.owner.changes[0], "the owner's UPDATE");
      await sleep(SILENCE_MS);
      expect(heard()).toEqual({ visitor: 1, reporter: 0, owner: 1, operator: 1 });

      // The third reporter holds it: that change, and any later one, reaches the owner and operators only.
      for (const u of reporters.slice(1)) expect((await report(u)).error).toBeNull();
      const held = await waitFor(
        () => listeners.owner.changes.find((c) => c.new.held_at),
        "the owner hears of the hold",
      );
      expect(held.new).toMatchObject({ id, is_public: true });
      await waitFor(() => listeners.operator.changes.find((c) => c.new.held_at), "the operator hears of the hold");
      await sleep(SILENCE_MS);
      expect(heard()).toEqual({ visitor: 1, reporter: 0, owner: 2, operator: 2 });

      const restored = await operator.client.rpc("moderate_generation", {
        p_generation_id: id,
        p_action: "restore",
        p_reason: "A lantern, not a fire",
      });
      expect(restored.error).toBeNull();
      const back = await waitFor(() => listeners.visitor.changes[1], "the visitor hears of the restore");
      expect(back.new).toMatchObject({ id, held_at: null, is_public: true });
      await sleep(SILENCE_MS);
      expect(listeners.reporter.changes).toEqual([]);
    },
  );
});
