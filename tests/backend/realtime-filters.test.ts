// postgres_changes filters and column selection as Supabase Realtime applies them, through the real
// supabase-js client on PGlite and on PostgreSQL: filters joined by commas (all must hold), `not.`,
// like/ilike/is/match/imatch/isdistinct beside eq…in, `select` narrowing what a change carries, and the
// join refused for a filter the subscriber's role cannot use.
import "fake-indexeddb/auto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { expect, it } from "vitest";
import { describeOnBackends, people } from "../support/backend-suite.ts";
import { listenChanges, sleep, waitFor } from "../support/realtime.ts";

const SILENCE_MS = 1200;

/** A published table whose rows their owner alone may read. */
const ITEMS = {
  file: "29991231000000_realtime_filter_items.sql",
  sql: `create table public.rt_items (
       id bigint generated always as identity primary key,
       user_id uuid not null default auth.uid(),
       title text not null,
       status text not null,
       done boolean,
       note text
     );
     alter table public.rt_items enable row level security;
     create policy "own items" on public.rt_items for all to authenticated
       using (user_id = auth.uid()) with check (user_id = auth.uid());
     revoke select on public.rt_items from authenticated;
     grant select (id, user_id, title, status, done) on public.rt_items to authenticated;
     alter publication supabase_realtime add table public.rt_items;`,
};

type Change = { eventType: string; new: Record<string, unknown> };
type Listen = { event: "INSERT"; schema: "public"; table: "rt_items"; filter?: string; select?: string[] };

/** Subscribes to the INSERTs into rt_items that `binding` lets through. */
function listen(client: SupabaseClient, name: string, binding: Omit<Listen, "event" | "schema" | "table">) {
  return listenChanges<Change>(client, name, { event: "INSERT", schema: "public", table: "rt_items", ...binding });
}

describeOnBackends("realtime filters and column selection on $title", ITEMS, (backend, { skip }) => {
  const [alice] = people(backend, "rt-filter-alice");

  it.skipIf(skip)(
    "applies every comma-joined filter, not., like, is and match, and narrows a change to its select",
    async () => {
      const all = await listen(alice.client, "items-all", {});
      const narrow = await listen(alice.client, "items-narrow", {
        filter: "title=like.keep%,status=not.in.(draft,archived),done=is.null,title=imatch.[0-9]$",
        select: ["title"],
      });
      const distinct = await listen(alice.client, "items-distinct", { filter: "done=isdistinct.true" });
      const rows: { title: string; status: string; done: boolean | null }[] = [
        { title: "keep 1", status: "live", done: null },
        { title: "keep 2", status: "draft", done: null },
        { title: "drop 3", status: "live", done: null },
        { title: "keep four", status: "live", done: null },
        { title: "keep 5", status: "live", done: true },
      ];
      for (const row of rows) expect((await alice.client.from("rt_items").insert(row)).error).toBeNull();

      await waitFor(() => (all.changes.length === rows.length ? true : undefined), "every insert, unfiltered");
      const first = await waitFor(() => narrow.changes[0], "the one row every filter passes");
      // The selected column and the primary key, nothing else.
      expect(first.new).toEqual({ id: expect.any(Number), title: "keep 1" });
      expect(all.changes[0].new).toMatchObject({ title: "keep 1", status: "live", done: null });
      await sleep(SILENCE_MS);
      expect(narrow.changes.map((c) => c.new.title)).toEqual(["keep 1"]);
      // null is distinct from true; true is not.
      expect(distinct.changes.map((c) => c.new.title)).toEqual(["keep 1", "keep 2", "drop 3", "keep four"]);
      for (const s of [all, narrow, distinct]) await s.channel.unsubscribe();
    },
  );

  it.skipIf(skip)("refuses a filter on a column the role may not select, or with a value not of its type", async () => {
    await expect(listen(alice.client, "items-secret", { filter: "note=eq.x" })).rejects.toThrow(
      /invalid column for filter note/,
    );
    await expect(listen(alice.client, "items-bad-id", { filter: "id=eq.abc" })).rejects.toThrow(
      /invalid input syntax for type bigint/,
    );
    await expect(listen(alice.client, "items-bad-select", { select: ["note"] })).rejects.toThrow(
      /invalid column for select note/,
    );
  });
});
