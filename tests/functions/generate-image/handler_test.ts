// The generate-image handler through its public surface, handler(req, deps): a fake data layer with the
// database's quota semantics, and the real Replicate adapter against the fake Replicate server.
import assert from "node:assert/strict";
import { DEFAULT_CONFIG, type Deps, handler } from "../../../supabase/functions/generate-image/handler.ts";
import { appError } from "../../../supabase/functions/_shared/errors.ts";
import { createProviderRegistry } from "../../../supabase/functions/_shared/providers/select.ts";
import { createReplicateProvider } from "../../../supabase/functions/_shared/providers/replicate.ts";
import { sniffImage } from "../../../supabase/functions/_shared/image/sniff.ts";
import { FakeDb, FakeStore } from "../fakes/fake-store.ts";
import type { GenerationRow } from "../../../supabase/functions/_shared/vocabulary/rows.ts";
import type { EngineAttempt, GenerationStore } from "../../../supabase/functions/_shared/generation-store.ts";
import { VALIDATION_MESSAGES } from "../../../supabase/functions/_shared/vocabulary/errors.ts";
import {
  ASPECT_RATIOS,
  NEGATIVE_PROMPT_MAX_CHARS,
  PROMPT_MAX_CHARS,
  QUALITIES,
  REFERENCE_IMAGE_MAX_BYTES,
  SEED_MAX,
} from "../../../supabase/functions/_shared/vocabulary/generation.ts";
import { type Tier, TIER_DAILY_QUOTA } from "../../../supabase/functions/_shared/vocabulary/tiers.ts";
import { type ReplicateFake, type ReplicateModes, startReplicateFake } from "../fakes/replicate-fake.ts";
import { solidPng, toBase64 } from "../fakes/fake-server.ts";
import { JSON_MAX_DEPTH, TOO_DEEP_MESSAGE } from "../../../supabase/functions/_shared/bounded-json.ts";
import { unstorableMessage } from "../../../supabase/functions/_shared/vocabulary/text.ts";
import { jpegDeclaring } from "../fixtures/jpeg-declaring.ts";

/** A JPEG whose header is fine and whose byte count is plausible, but whose data does not decode. */
function undecodableJpeg(): Uint8Array {
  const real = jpegDeclaring(64, 64);
  const broken = new Uint8Array(real.length + 2048);
  broken.set(real.subarray(0, real.length - 2));
  broken.fill(0x55, real.length - 2);
  return broken;
}

interface Harness {
  db: FakeDb;
  fake: ReplicateFake;
  deps: Deps;
  logs: Record<string, unknown>[];
  user: { id: string; jwt: string };
  call(
    body: Record<string, unknown>,
    opts?: { jwt?: string | null; headers?: Record<string, string>; deps?: Deps },
  ): Promise<Response>;
  predictions(): number;
  close(): Promise<void>;
}

/** Runs `body` with a harness made with `opts`, then closes it whatever happened. */
async function withHarness(
  ...args: [(h: Harness) => Promise<void>] | [Parameters<typeof harness>[0], (h: Harness) => Promise<void>]
): Promise<void> {
  const [opts, body] = args.length === 1 ? [undefined, args[0]] : args;
  const h = harness(opts);
  try {
    await body(h);
  } finally {
    await h.close();
  }
}

function harness(
  opts: { modes?: Partial<ReplicateModes>; timeoutMs?: number; tier?: Tier; now?: () => number } = {},
): Harness {
  const db = new FakeDb(opts.now);
  const fake = startReplicateFake(opts.modes);
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const replicate = createReplicateProvider({
    token: fake.token,
    baseUrl: fake.url,
    pollIntervalMs: 5,
    timeoutMs,
    fetch,
  });
  const logs: Record<string, unknown>[] = [];
  const deps: Deps = {
    store: new FakeStore(db),
    providers: createProviderRegistry([replicate], { timeoutMs }),
    fetch,
    now: opts.now ?? (() => Date.now()),
    log: (event, fields) => logs.push({ event, ...fields }),
    config: DEFAULT_CONFIG,
  };
  const user = db.addUser(opts.tier);
  return {
    db,
    fake,
    deps,
    logs,
    user,
    call(body, o = {}) {
      const jwt = o.jwt === undefined ? user.jwt : o.jwt;
      return handler(
        new Request("http://localhost/functions/v1/generate-image", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(jwt ? { authorization: `Bearer ${jwt}` } : {}),
            ...o.headers,
          },
          body: JSON.stringify(body),
        }),
        o.deps ?? deps,
      );
    },
    predictions: () => fake.received.filter((r) => r.method === "POST" && r.path.endsWith("/predictions")).length,
    close: () => fake.close(),
  };
}

function request(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    request_id: crypto.randomUUID(),
    prompt: "  a red fox in the snow  ",
    negative_prompt: "",
    style: "watercolor",
    quality: "standard",
    aspect_ratio: "16:9",
    ...overrides,
  };
}

/** The row `request()` stores for `userId` under `id` with Replicate at 16:9; `over` gives its seed, model and time. */
function foxRow(
  userId: string,
  id: string,
  over: Pick<GenerationRow, "seed" | "model" | "created_at">,
): GenerationRow {
  return {
    id,
    user_id: userId,
    prompt: "a red fox in the snow",
    negative_prompt: "",
    style: "watercolor",
    quality: "standard",
    aspect_ratio: "16:9",
    width: 1344,
    height: 768,
    provider: "replicate",
    image_path: `${userId}/${id}.png`,
    is_public: false,
    is_saved: false,
    ...over,
  };
}

async function errorOf(res: Response) {
  const body = await res.json();
  return { status: res.status, ...body.error };
}

Deno.test(
  "a generation stores the image under the owner's folder, inserts the row with the request id and charges one slot",
  async () => {
    await withHarness(async (h) => {
      const body = request({ seed: 99 });
      const res = await h.call(body);
      assert.equal(res.status, 200);
      const { generation, quota } = await res.json();
      const path = `${h.user.id}/${body.request_id}.png`;
      assert.deepEqual(
        { ...generation, created_at: "t" },
        {
          ...foxRow(h.user.id, body.request_id as string, {
            seed: 99,
            model: "black-forest-labs/flux-schnell",
            created_at: "t",
          }),
          image_url: `http://storage.test/object/sign/generations/${path}?expires=3600`,
        },
      );
      assert.equal(quota.remaining, 4);
      assert.equal(quota.daily_limit, 5);
      assert.equal(quota.reset_at, h.db.quota(h.user.id).reset_at);
      const object = h.db.objects.get(path)!;
      assert.equal(object.contentType, "image/png");
      assert.equal(sniffImage(object.bytes)?.width, 1344);
      assert.equal(h.db.limitsOf(h.user.id).used, 1);
      assert.equal(h.db.reservations.size, 0);
      // Each step the request went through with its duration (steps side by side in the order they
      // ended), total last.
      const timing = (res.headers.get("server-timing") ?? "").split(", ").map((e) => e.split(";dur="));
      assert.equal(timing.at(-1)?.[0], "total");
      assert.deepEqual(timing.map(([name]) => name).sort(), [
        "auth",
        "body",
        "lookup",
        "moderation",
        "note",
        "optin",
        "provider",
        "recipe",
        "record",
        "reserve",
        "sign",
        "total",
        "upload",
      ]);
      assert.ok(timing.every(([, ms]) => /^\d+(\.\d)?$/.test(ms)), JSON.stringify(timing));
    });
  },
);

Deno.test("a repeated request id returns the stored row and charges nothing", async () => {
  await withHarness(async (h) => {
    const body = request();
    const first = await (await h.call(body)).json();
    const again = await h.call(body);
    assert.equal(again.status, 200);
    const replay = await again.json();
    assert.deepEqual(replay.generation, first.generation);
    assert.equal(replay.replayed, true);
    assert.equal(replay.quota.remaining, 4);
    assert.equal(h.predictions(), 1);
    assert.equal(h.db.limitsOf(h.user.id).used, 1);
    assert.equal(h.db.rows.size, 1);
  });
});

Deno.test("concurrent duplicates in one isolate share one run: one provider call, one answer, one charge", async () => {
  await withHarness(async (h) => {
    const body = request();
    const answers = await Promise.all(Array.from({ length: 5 }, () => h.call(body)));
    const bodies = await Promise.all(answers.map((r) => r.json()));
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 200, 200, 200, 200],
    );
    // Without the in-flight dedupe every duplicate would call the provider (the store would still keep
    // one row): one prediction is the handler's doing.
    assert.equal(h.predictions(), 1);
    for (const b of bodies) assert.deepEqual(b, bodies[0]);
    assert.equal(bodies[0].replayed, false);
    assert.equal(h.db.limitsOf(h.user.id).used, 1);
  });
});

Deno.test("a shared run that fails releases the slot once, and the next try with that id runs afresh", async () => {
  await withHarness({ modes: { createStatus: 503 } }, async (h) => {
    const body = request();
    const answers = await Promise.all(Array.from({ length: 3 }, () => h.call(body)));
    const errors = await Promise.all(answers.map(errorOf));
    assert.deepEqual(
      errors.map((e) => e.code),
      ["server_error", "server_error", "server_error"],
    );
    assert.equal(h.predictions(), 1);
    assert.equal(h.db.calls.filter((c) => c === "release").length, 1);
    assert.equal(h.db.quota(h.user.id).remaining, 5);
    // The failed run is no longer in flight: a retry reaches the provider again instead of reusing it.
    assert.equal((await errorOf(await h.call(body))).code, "server_error");
    assert.equal(h.predictions(), 2);
  });
});

Deno.test(
  "when another isolate stored the row first, the loser answers that row as a replay and keeps its image",
  async () => {
    await withHarness(async (h) => {
      const body = request();
      let firstDone!: () => void;
      const firstStored = new Promise<void>((r) => (firstDone = r));
      // The second isolate draws too (no shared in-flight run across isolates), then inserts only after
      // the first has answered, so its insert meets the stored row.
      class LateStore extends FakeStore {
        override async recordGeneration(row: Parameters<FakeStore["recordGeneration"]>[0]) {
          await firstStored;
          return super.recordGeneration(row);
        }
      }
      const otherIsolate: Deps = { ...h.deps, store: new LateStore(h.db) };
      const late = h.call(body, { deps: otherIsolate });
      const first = await (await h.call(body)).json();
      firstDone();
      const res = await late;
      assert.equal(res.status, 200);
      const second = await res.json();
      assert.equal(second.replayed, true);
      assert.deepEqual(second.generation, first.generation);
      assert.deepEqual(second.quota, h.db.quota(h.user.id));
      // The image at the shared path is the first isolate's and must survive the loser's clean-up.
      assert.equal(h.db.objects.size, 1);
      assert.equal(h.db.calls.includes("removeImage"), false);
      assert.equal(h.db.calls.includes("release"), false);
    });
  },
);

Deno.test(
  "an exhausted quota answers daily_limit (429) with the seconds until the reset, without calling a provider",
  async () => {
    let now = Date.parse("2026-03-10T18:00:00Z");
    await withHarness({ now: () => now }, async (h) => {
      h.db.limitsOf(h.user.id).used = 5;
      const res = await h.call(request());
      const err = await errorOf(res);
      assert.equal(err.status, 429);
      assert.equal(err.code, "daily_limit");
      assert.equal(err.message, VALIDATION_MESSAGES.dailyLimit);
      assert.equal(err.retryable, false);
      assert.equal(err.retry_after, 6 * 3600);
      assert.equal(res.headers.get("retry-after"), String(6 * 3600));
      assert.equal(h.predictions(), 0);
      now = Date.parse("2026-03-11T00:00:01Z");
      assert.equal((await h.call(request())).status, 200);
    });
  },
);

Deno.test(
  "an image a call stored without its row goes once its reservation is 10 minutes old, once a sweep in 10 minutes",
  async () => {
    let now = Date.parse("2026-03-10T12:00:00Z");
    await withHarness({ tier: "pro", now: () => now }, async (h) => {
      const later: Promise<void>[] = [];
      const deps: Deps = { ...h.deps, background: (work) => void later.push(work) };
      const png = { bytes: solidPng(4, 4), contentType: "image/png" };
      const other = h.db.addUser("pro");
      // Calls that ended between their image and their row: 11 and 5 minutes ago, and another person's.
      const left = (userId: string, minutesAgo: number) => {
        const id = crypto.randomUUID();
        h.db.reservations.set(id, { userId, at: now - minutesAgo * 60_000 });
        h.db.objects.set(`${userId}/${id}.png`, png);
        return `${userId}/${id}.png`;
      };
      const stale = left(h.user.id, 11);
      const young = left(h.user.id, 5);
      const theirs = left(other.id, 11);
      assert.equal((await h.call(request(), { deps })).status, 200);
      await Promise.all(later);
      assert.equal(h.db.objects.has(stale), false);
      assert.deepEqual([young, theirs].map((p) => h.db.objects.has(p)), [true, true]);
      assert.equal(h.db.held(h.user.id), 1, "the young reservation is still held");
      assert.ok(h.logs.some((l) => l.event === "left_image.removed" && l.path === stale));

      // Within 10 minutes the next call does not ask again; after them it takes what has gone stale since.
      now += 6 * 60_000;
      assert.equal((await h.call(request(), { deps })).status, 200);
      await Promise.all(later);
      assert.equal(h.db.calls.filter((c) => c === "takeStaleReservations").length, 1);
      now += 5 * 60_000;
      assert.equal((await h.call(request(), { deps })).status, 200);
      await Promise.all(later);
      assert.equal(h.db.objects.has(young), false);
      assert.equal(h.db.objects.has(theirs), true);
      // The made images of these calls stay: each has its row.
      for (const row of h.db.rows.values()) assert.ok(h.db.objects.has(row.image_path));

      // The request of a removed image, repeated later, is drawn and stored again.
      const id = stale.slice(stale.indexOf("/") + 1, -".png".length);
      const again = await h.call(request({ request_id: id }), { deps });
      assert.equal(again.status, 200);
      assert.ok(h.db.objects.has(h.db.rows.get(id)!.image_path));
    });
  },
);

Deno.test("the answer's quota is what storing the row reported, not the reservation's older figure", async () => {
  // Another device of this pro user finishes two generations while this one draws.
  class BusyAccountStore extends FakeStore {
    override recordGeneration(row: Parameters<FakeStore["recordGeneration"]>[0]) {
      this.db.limitsOf(row.user_id).used += 2;
      return super.recordGeneration(row);
    }
  }
  await withHarness({ tier: "pro" }, async (h) => {
    const { quota } = await (
      await h.call(request(), { deps: { ...h.deps, store: new BusyAccountStore(h.db) } })
    ).json();
    assert.deepEqual(quota, {
      remaining: TIER_DAILY_QUOTA.pro - 3,
      daily_limit: TIER_DAILY_QUOTA.pro,
      reset_at: h.db.quota(h.user.id).reset_at,
    });
  });
});

Deno.test(
  "when storing the row reports no quota, the answer's quota is the reservation's, without its internal fields",
  async () => {
    class QuietStore extends FakeStore {
      override async recordGeneration(row: Parameters<FakeStore["recordGeneration"]>[0]) {
        const r = await super.recordGeneration(row);
        return r.ok && r.value.created ? { ok: true as const, value: { ...r.value, quota: null } } : r;
      }
    }
    await withHarness({ tier: "premium" }, async (h) => {
      const res = await h.call(request(), { deps: { ...h.deps, store: new QuietStore(h.db) } });
      assert.equal(res.status, 200);
      const { quota } = await res.json();
      assert.deepEqual(quota, {
        remaining: TIER_DAILY_QUOTA.premium - 1,
        daily_limit: TIER_DAILY_QUOTA.premium,
        reset_at: h.db.quota(h.user.id).reset_at,
      });
    });
  },
);

for (
  const [label, modes, code, status] of [
    ["no credit at the provider", { createStatus: 402 }, "insufficient_credits", 402],
    ["an NSFW result", { outcome: "nsfw" }, "nsfw_content", 422],
    ["a provider rate limit", { createStatus: 429, retryAfter: "7" }, "rate_limit", 429],
    ["a provider outage", { createStatus: 503 }, "server_error", 500],
    ["an expired output", { outcome: "data_removed" }, "server_error", 500],
  ] as const
) {
  Deno.test(`${label} answers ${code} and releases the reservation`, async () => {
    await withHarness({ modes }, async (h) => {
      const res = await h.call(request());
      const err = await errorOf(res);
      assert.equal(err.status, status);
      assert.equal(err.code, code);
      if (code === "rate_limit") assert.equal(err.retry_after, 7);
      assert.equal(h.db.reservations.size, 0);
      assert.equal(h.db.limitsOf(h.user.id).used, 0);
      assert.equal(h.db.rows.size, 0);
      assert.equal(h.db.objects.size, 0);
      assert.ok(h.db.calls.includes("release"));
      // /status counts the call: the engine, no image, and why.
      assert.equal(h.db.attempts.length, 1);
      assert.deepEqual({ ...h.db.attempts[0], ms: 0 }, { provider: "replicate", ok: false, errorCode: code, ms: 0 });
    });
  });
}

Deno.test("each engine call is noted for /status once: engine, success and time to image; a replay calls none", async () => {
  await withHarness(async (h) => {
    const body = request();
    assert.equal((await h.call(body)).status, 200);
    assert.equal((await h.call(body)).status, 200);
    assert.equal(h.db.attempts.length, 1);
    const [attempt] = h.db.attempts;
    assert.equal(attempt.provider, "replicate");
    assert.equal(attempt.ok, true);
    assert.equal(attempt.errorCode, null);
    assert.ok(attempt.ms >= 0 && attempt.ms < 5_000);
  });
});

/** The store, with every call's start and end written to `events` as "<method>:start" and "<method>:end". */
function traced(store: GenerationStore, events: string[]): GenerationStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        events.push(`${String(name)}:start`);
        return (value.apply(target, args) as Promise<unknown>).finally(() => events.push(`${String(name)}:end`));
      };
    },
  });
}

Deno.test(
  "the image is stored before its row and its URL; the URL is signed while the row is written; the engine call is noted after the row",
  async () => {
    await withHarness(async (h) => {
      const events: string[] = [];
      const res = await h.call(request(), { deps: { ...h.deps, store: traced(h.deps.store, events) } });
      assert.equal(res.status, 200);
      const at = (event: string) => {
        assert.ok(events.includes(event), `${event} missing from ${events.join(", ")}`);
        return events.indexOf(event);
      };
      assert.ok(at("putImage:end") < at("recordGeneration:start"), events.join(", "));
      assert.ok(at("putImage:end") < at("signedUrl:start"), events.join(", "));
      assert.ok(at("signedUrl:start") < at("recordGeneration:end"), events.join(", "));
      assert.ok(at("recordGeneration:end") < at("recordAttempt:start"), events.join(", "));
    });
  },
);

Deno.test("where the platform keeps background work, the answer does not wait for the engine call's note", async () => {
  await withHarness(async (h) => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const store = h.deps.store;
    // The note's write hangs until released: an answer that waited for it would never come.
    const slowNotes: GenerationStore = new Proxy(store, {
      get: (target, name, receiver) =>
        name === "recordAttempt" ?
          async (attempt: EngineAttempt) => {
            await held;
            return target.recordAttempt(attempt);
          } :
          Reflect.get(target, name, receiver),
    });
    const kept: Promise<void>[] = [];
    const deps: Deps = { ...h.deps, store: slowNotes, background: (work) => kept.push(work) };
    const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 3_000));
    const res = await Promise.race([h.call(request(), { deps }), timeout]);
    assert.notEqual(res, "timeout", "the answer waited for the note");
    assert.equal((res as Response).status, 200);
    // The note, and the first sweep of this person's left images.
    assert.equal(kept.length, 2);
    assert.equal(h.db.attempts.length, 0);
    release();
    await Promise.all(kept);
    assert.equal(h.db.attempts.length, 1);
    assert.equal(h.db.attempts[0].ok, true);
  });
});

Deno.test("a failure to note the engine call costs the person nothing", async () => {
  await withHarness(async (h) => {
    h.db.failures.set("recordAttempt", appError("server_error", { detail: "down" }));
    const res = await h.call(request());
    assert.equal(res.status, 200);
    assert.equal(h.db.limitsOf(h.user.id).used, 1);
    assert.ok(h.logs.some((l) => l.event === "engine_attempt.record_failed"));
  });
});

Deno.test("a provider that misses the deadline answers timeout (504) and releases the slot", async () => {
  await withHarness({ modes: { createDelayMs: 300 }, timeoutMs: 60 }, async (h) => {
    const err = await errorOf(await h.call(request()));
    assert.equal(err.status, 504);
    assert.equal(err.code, "timeout");
    assert.equal(err.retryable, true);
    assert.equal(h.db.quota(h.user.id).remaining, 5);
  });
});

Deno.test("an output that is not an image is never stored", async () => {
  await withHarness({ modes: { outputBytes: new TextEncoder().encode("<html>error</html>") } }, async (h) => {
    const err = await errorOf(await h.call(request()));
    assert.equal(err.code, "server_error");
    assert.equal(h.db.objects.size, 0);
    assert.equal(h.db.quota(h.user.id).remaining, 5);
  });
});

Deno.test("a storage failure and a failed insert release the slot and leave no object behind", async () => {
  await withHarness(async (h) => {
    h.db.failures.set("putImage", appError("server_error", { detail: "storage down" }));
    assert.equal((await errorOf(await h.call(request()))).code, "server_error");
    h.db.failures.set("recordGeneration", appError("server_error", { detail: "db down" }));
    assert.equal((await errorOf(await h.call(request()))).code, "server_error");
    assert.equal(h.db.objects.size, 0);
    assert.equal(h.db.rows.size, 0);
    assert.equal(h.db.quota(h.user.id).remaining, 5);
    assert.ok(h.db.calls.includes("removeImage"));
  });
});

Deno.test(
  "the row and its charge are one step: a function that dies right after storing them has charged",
  async () => {
    // The isolate is killed once the database has stored the row (and, in the same transaction, the
    // charge), before it answers. The person retries with the same request id.
    class DiesAfterStoringStore extends FakeStore {
      override async recordGeneration(
        row: Parameters<FakeStore["recordGeneration"]>[0],
      ): ReturnType<FakeStore["recordGeneration"]> {
        await super.recordGeneration(row);
        throw new Error("isolate killed");
      }
    }
    await withHarness(async (h) => {
      h.db.limitsOf(h.user.id).used = 4;
      const body = request();
      await assert.rejects(h.call(body, { deps: { ...h.deps, store: new DiesAfterStoringStore(h.db) } }));
      assert.equal(h.db.rows.size, 1);
      assert.equal(h.db.limitsOf(h.user.id).used, 5);
      assert.equal(h.db.reservations.size, 0);
      const replayed = await (await h.call(body)).json();
      assert.equal(replayed.replayed, true);
      assert.equal(replayed.quota.remaining, 0);
      assert.equal(h.db.limitsOf(h.user.id).used, 5);
      assert.equal((await errorOf(await h.call(request()))).code, "daily_limit");
    });
  },
);

Deno.test("a replay charges a row that was stored without its charge, once, and never charges again", async () => {
  // What a function that stopped between a separate insert and commit left behind (before both became
  // one transaction): the row is stored and its reservation still held, uncounted.
  await withHarness(async (h) => {
    h.db.limitsOf(h.user.id).used = 4;
    const body = request();
    const id = body.request_id as string;
    const reserved = await new FakeStore(h.db).reserve(h.user.id, id);
    assert.ok(reserved.ok && reserved.value.allowed);
    h.db.rows.set(id, foxRow(h.user.id, id, { seed: 1, model: "m", created_at: new Date().toISOString() }));
    const first = await (await h.call(body)).json();
    assert.equal(first.replayed, true);
    assert.equal(h.db.limitsOf(h.user.id).used, 5);
    assert.equal(h.db.reservations.size, 0);
    assert.equal(first.quota.remaining, 0);
    const again = await (await h.call(body)).json();
    assert.equal(again.replayed, true);
    assert.equal(h.db.limitsOf(h.user.id).used, 5);
    assert.equal(h.predictions(), 0);
  });
});

Deno.test("a replay whose settling commit fails still answers, with the quota read as the user", async () => {
  await withHarness(async (h) => {
    const body = request();
    assert.equal((await h.call(body)).status, 200);
    h.db.failures.set("commit", appError("server_error", { detail: "blip" }));
    const res = await h.call(body);
    assert.equal(res.status, 200);
    const { quota, replayed } = await res.json();
    assert.equal(replayed, true);
    assert.equal(quota.remaining, 4);
    assert.ok(h.db.calls.includes("readLimits"));
    assert.ok(h.logs.some((l) => l.event === "quota.commit_failed"));
  });
});

for (
  const [step, method] of [
    ["before the slot is reserved", "reserve"],
    ["while the image is drawn and stored", "putImage"],
    ["as the row is stored", "recordGeneration"],
  ] as const
) {
  Deno.test(`an account deleted ${step} answers auth_required (401), not a retryable 500`, async () => {
    const h = harness();
    // The account is deleted just before this step reaches the database.
    const store = new FakeStore(h.db);
    const step = (store[method] as (...args: unknown[]) => unknown).bind(store);
    Object.assign(store, {
      [method]: (...args: unknown[]) => {
        h.db.deleteUser(h.user.id);
        return step(...args);
      },
    });
    try {
      const res = await h.call(request(), { deps: { ...h.deps, store } });
      const err = await errorOf(res);
      assert.equal(err.status, 401);
      assert.equal(err.code, "auth_required");
      assert.equal(err.retryable, false);
      assert.equal(h.db.objects.size, 0);
      assert.equal(h.db.rows.size, 0);
    } finally {
      await h.close();
    }
  });
}

Deno.test("a request id already used by another person is refused without a charge", async () => {
  await withHarness(async (h) => {
    const body = request();
    assert.equal((await h.call(body)).status, 200);
    const stranger = h.db.addUser();
    const err = await errorOf(await h.call(body, { jwt: stranger.jwt }));
    assert.equal(err.status, 409);
    assert.equal(err.code, "invalid_input");
    assert.equal(h.db.quota(stranger.id).remaining, 5);
  });
});

Deno.test("without a valid session the answer is auth_required (401)", async () => {
  await withHarness(async (h) => {
    for (const jwt of [null, "not-a-session"]) {
      const err = await errorOf(await h.call(request(), { jwt }));
      assert.equal(err.status, 401);
      assert.equal(err.code, "auth_required");
    }
    assert.equal(h.db.calls.includes("reserve"), false);
  });
});

const notAnImage = `data:image/png;base64,${btoa("just some text, not pixels")}`;
const tooLarge = `data:image/png;base64,${"A".repeat(Math.ceil((REFERENCE_IMAGE_MAX_BYTES + 10) / 3) * 4)}`;

for (
  const [label, overrides, message] of [
    ["a missing prompt", { prompt: undefined }, VALIDATION_MESSAGES.promptRequired],
    ["a blank prompt", { prompt: "   \n " }, VALIDATION_MESSAGES.promptRequired],
    ["a prompt over the limit", { prompt: "x".repeat(PROMPT_MAX_CHARS + 1) }, VALIDATION_MESSAGES.promptTooLong],
    [
      "a negative prompt over the limit",
      { negative_prompt: "x".repeat(NEGATIVE_PROMPT_MAX_CHARS + 1) },
      VALIDATION_MESSAGES.negativePromptTooLong,
    ],
    ["an unknown style", { style: "crayon" }, "Please choose one of the listed styles"],
    ["an unknown quality", { quality: "max" }, `Quality must be one of ${QUALITIES.join(", ")}`],
    ["an unknown aspect ratio", { aspect_ratio: "4:3" }, `Aspect ratio must be one of ${ASPECT_RATIOS.join(", ")}`],
    ["a fractional seed", { seed: 1.5 }, `Seed must be a whole number from 0 to ${SEED_MAX}`],
    ["a text seed", { seed: "abc" }, `Seed must be a whole number from 0 to ${SEED_MAX}`],
    ["a reference that is not an image", { reference_image: notAnImage }, VALIDATION_MESSAGES.notAnImage],
    [
      "a reference that is not a data URL",
      { reference_image: "https://example.com/a.png" },
      VALIDATION_MESSAGES.notAnImage,
    ],
    ["a reference over the size limit", { reference_image: tooLarge }, "The reference image must be at most 4 MB"],
    ["a request id that is not a UUID", { request_id: "42" }, "request_id must be a UUID"],
    ["a prompt with a NUL", { prompt: "a fox\u0000 in snow" }, unstorableMessage("The prompt")],
    ["a prompt with a lone surrogate", { prompt: "a fox \ud83e in snow" }, unstorableMessage("The prompt")],
    ["a prompt that is only a NUL", { prompt: "\u0000" }, unstorableMessage("The prompt")],
    ["a negative prompt with a NUL", { negative_prompt: "blur\u0000" }, unstorableMessage("The negative prompt")],
    [
      "a negative prompt with a lone low surrogate",
      { negative_prompt: "\udc00 blur" },
      unstorableMessage("The negative prompt"),
    ],
    [
      "a small JPEG declaring 4000x4000",
      { reference_image: `data:image/jpeg;base64,${toBase64(jpegDeclaring(4000, 4000))}` },
      VALIDATION_MESSAGES.notAnImage,
    ],
    ["an unknown provider", { provider: "midjourney" }, "Unknown image provider"],
    ["an unknown time zone", { timezone: "Mars/Olympus" }, "Unknown time zone"],
  ] as const
) {
  Deno.test(`${label} is invalid_input: '${message}'`, async () => {
    await withHarness(async (h) => {
      const err = await errorOf(await h.call(request(overrides as Record<string, unknown>)));
      assert.equal(err.code, "invalid_input");
      assert.equal(err.message, message);
      assert.equal(err.retryable, false);
      assert.ok(err.status === 400 || err.status === 413);
      assert.equal(h.db.calls.includes("reserve"), false);
      assert.equal(h.predictions(), 0);
    });
  });
}

Deno.test("a prompt with an emoji (a surrogate pair) is stored as is", async () => {
  await withHarness(async (h) => {
    const res = await h.call(request({ prompt: "a fox \u{1F98A} in snow", negative_prompt: "\u{1F600}" }));
    assert.equal(res.status, 200);
    assert.equal((await res.json()).generation.prompt, "a fox \u{1F98A} in snow");
  });
});

Deno.test(
  "the prompt limits count characters as the app does (code points, after trimming): 500 emoji pass, 501 do not",
  async () => {
    await withHarness(async (h) => {
      // 500 emoji are 1,000 UTF-16 units: the limit is the person's characters, not JavaScript's units.
      const prompt = "\u{1F3A8}".repeat(PROMPT_MAX_CHARS);
      const negative = "\u{1F600}".repeat(NEGATIVE_PROMPT_MAX_CHARS);
      const res = await h.call(request({ prompt: `  ${prompt}\n`, negative_prompt: negative }));
      assert.equal(res.status, 200);
      const { generation } = await res.json();
      assert.equal(generation.prompt, prompt);
      assert.equal(generation.negative_prompt, negative);
      const over = await errorOf(await h.call(request({ prompt: `${prompt}\u{1F3A8}` })));
      assert.equal(over.message, VALIDATION_MESSAGES.promptTooLong);
      const overNegative = await errorOf(await h.call(request({ negative_prompt: `${negative}x` })));
      assert.equal(overNegative.message, VALIDATION_MESSAGES.negativePromptTooLong);
    });
  },
);

Deno.test("a body nested deeper than the JSON limit is invalid_input before it is parsed", async () => {
  await withHarness(async (h) => {
    const deep = "[".repeat(JSON_MAX_DEPTH + 1) + "]".repeat(JSON_MAX_DEPTH + 1);
    const body = `{"request_id":"${crypto.randomUUID()}","prompt":"fox","extra":${deep}}`;
    const res = await handler(
      new Request("http://localhost/functions/v1/generate-image", {
        method: "POST",
        headers: { authorization: `Bearer ${h.user.jwt}`, "content-type": "application/json" },
        body,
      }),
      h.deps,
    );
    const err = await errorOf(res);
    assert.equal(err.status, 400);
    assert.equal(err.code, "invalid_input");
    assert.equal(err.message, TOO_DEEP_MESSAGE);
    assert.equal(h.db.calls.length, 0);
  });
});

Deno.test(
  "the reference image is decoded only for a verified caller with quota left: a visitor gets 401, a person at 0 left daily_limit, without a decode",
  async () => {
    await withHarness(async (h) => {
      // The decode is the only step that can tell this reference is broken, so an answer other than 401
      // means it ran.
      const reference_image = `data:image/jpeg;base64,${toBase64(undecodableJpeg())}`;
      for (const jwt of [null, "the-public-anon-key"]) {
        const err = await errorOf(await h.call(request({ reference_image }), { jwt }));
        assert.equal(err.status, 401, `jwt ${jwt}`);
        assert.equal(err.code, "auth_required");
      }
      // A signed-in person with quota left gets the decode's answer; the slot held for it is given back.
      const err = await errorOf(await h.call(request({ reference_image })));
      assert.equal(err.status, 400);
      assert.equal(err.message, VALIDATION_MESSAGES.notAnImage);
      assert.equal(h.db.calls.includes("release"), true);
      assert.equal(h.db.limitsOf(h.user.id).used, 0);
      assert.equal(h.predictions(), 0);
      // At 0 left the answer is the daily limit: the decode never ran.
      h.db.limitsOf(h.user.id).used = 5;
      const spent = await errorOf(await h.call(request({ reference_image })));
      assert.equal(spent.code, "daily_limit");
    });
  },
);

Deno.test("a replay does not decode the reference image again", async () => {
  await withHarness(async (h) => {
    const body = request({ reference_image: `data:image/png;base64,${toBase64(solidPng(8, 8))}` });
    assert.equal((await h.call(body)).status, 200);
    // The same request id with a reference that would not decode: the stored row answers.
    const res = await h.call({ ...body, reference_image: `data:image/jpeg;base64,${toBase64(undecodableJpeg())}` });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).replayed, true);
  });
});

Deno.test("a body that is not JSON is invalid_input", async () => {
  await withHarness(async (h) => {
    const res = await handler(
      new Request("http://localhost/functions/v1/generate-image", {
        method: "POST",
        headers: { authorization: `Bearer ${h.user.jwt}` },
        body: "prompt=hello",
      }),
      h.deps,
    );
    const err = await errorOf(res);
    assert.equal(err.status, 400);
    assert.equal(err.code, "invalid_input");
  });
});

Deno.test("a real reference image is accepted and reaches the provider with its true type", async () => {
  await withHarness(async (h) => {
    const png = solidPng(8, 8);
    const res = await h.call(
      request({ quality: "high", reference_image: `data:application/octet-stream;base64,${toBase64(png)}` }),
    );
    assert.equal(res.status, 200);
    const sent = h.fake.received.find((r) => r.path.includes("flux-dev"))!.body as { input: { image: string } };
    assert.equal(sent.input.image, `data:image/png;base64,${toBase64(png)}`);
  });
});

Deno.test("a request may ask for the built-in engine by name even when a remote provider is configured", async () => {
  await withHarness(async (h) => {
    const res = await h.call(request({ provider: "builtin", aspect_ratio: "9:16" }));
    assert.equal(res.status, 200);
    const { generation } = await res.json();
    assert.deepEqual(
      [generation.provider, generation.model, generation.width, generation.height],
      ["builtin", "builtin-procedural-v1", 1024, 1536],
    );
    assert.equal(h.predictions(), 0);
  });
});

Deno.test("an empty seed draws a seed from the request id, so a retry draws the same image", async () => {
  await withHarness(async (h) => {
    const body = request({ seed: "" });
    const { generation } = await (await h.call(body)).json();
    assert.equal(typeof generation.seed, "number");
    const sentSeed = (h.fake.received[0].body as { input: { seed: number } }).input.seed;
    assert.equal(generation.seed, sentSeed);
  });
});

Deno.test("the time zone from the body or the X-Timezone header is stored once for the next reset", async () => {
  await withHarness(async (h) => {
    await h.call(request({ timezone: "America/New_York" }));
    await h.call(request({ timezone: "America/New_York" }));
    assert.equal(h.db.calls.filter((c) => c === "setTimezone").length, 1);
    assert.equal(h.db.limitsOf(h.user.id).pendingTimezone, "America/New_York");
    await h.call(request(), { headers: { "x-timezone": "Asia/Tokyo" } });
    assert.equal(h.db.limitsOf(h.user.id).pendingTimezone, "Asia/Tokyo");
  });
});

Deno.test("logs carry codes and ids, never the token or the prompt", async () => {
  await withHarness({ modes: { createStatus: 503 } }, async (h) => {
    await h.call(request({ prompt: "my secret prompt" }));
    const text = JSON.stringify(h.logs);
    assert.ok(h.logs.length > 0);
    assert.equal(text.includes(h.user.jwt), false);
    assert.equal(text.includes("my secret prompt"), false);
    assert.equal(text.includes(h.fake.token), false);
  });
});

Deno.test("answers CORS preflight and refuses other methods than POST", async () => {
  await withHarness(async (h) => {
    const pre = await handler(
      new Request("http://localhost/functions/v1/generate-image", { method: "OPTIONS" }),
      h.deps,
    );
    assert.equal(pre.status, 200);
    assert.match(pre.headers.get("access-control-allow-headers") ?? "", /x-timezone/);
    // The browser keeps the preflight, so a later generation goes straight to its POST.
    assert.equal(pre.headers.get("access-control-max-age"), "86400");
    await pre.body?.cancel();
    const get = await handler(new Request("http://localhost/functions/v1/generate-image"), h.deps);
    assert.equal(get.status, 405);
    await get.body?.cancel();
  });
});

Deno.test(
  "a person who opted in to the public gallery has a new generation stored private, then sent to publish-generation as its owner",
  async () => {
    await withHarness(async (h) => {
      h.db.galleryOptIn.set(h.user.id, true);
      const published: [string, string][] = [];
      const deps: Deps = { ...h.deps, publish: (jwt, id) => Promise.resolve(void published.push([jwt, id])) };
      const body = request();
      const res = await h.call(body, { deps });
      assert.equal(res.status, 200);
      const { generation } = await res.json();
      // Published only once the image check passes (publish-generation), never by the insert itself.
      assert.equal(generation.is_public, false);
      assert.equal(h.db.rows.get(body.request_id as string)?.is_public, false);
      assert.deepEqual(published, [[h.user.jwt, body.request_id]]);
      h.db.galleryOptIn.set(h.user.id, false);
      assert.equal((await h.call(request(), { deps })).status, 200);
      assert.equal(published.length, 1);
    });
  },
);

Deno.test("without the opt-in (turned off, or no preferences row) a new generation stays private", async () => {
  await withHarness(async (h) => {
    const withoutRow = request();
    assert.equal((await h.call(withoutRow)).status, 200);
    h.db.galleryOptIn.set(h.user.id, false);
    const optedOut = request();
    assert.equal((await h.call(optedOut)).status, 200);
    assert.equal(h.db.rows.get(withoutRow.request_id as string)?.is_public, false);
    assert.equal(h.db.rows.get(optedOut.request_id as string)?.is_public, false);
  });
});

Deno.test(
  "when the opt-in cannot be read the generation is still made, private, and the failure is logged",
  async () => {
    await withHarness(async (h) => {
      h.db.galleryOptIn.set(h.user.id, true);
      h.db.failures.set("publishDefault", appError("server_error", { detail: "preferences unreachable" }));
      const body = request();
      const res = await h.call(body);
      assert.equal(res.status, 200);
      assert.equal((await res.json()).generation.is_public, false);
      assert.equal(h.db.rows.get(body.request_id as string)?.is_public, false);
      assert.ok(h.logs.some((l) => l.event === "gallery_opt_in.read_failed"));
      // The opt-in only decides at creation: a replay answers the stored row unchanged.
      const again = await h.call(body);
      assert.equal((await again.json()).generation.is_public, false);
    });
  },
);

Deno.test("a late retry of a generation the person deleted is answered as deleted: nothing drawn, stored or charged", async () => {
  await withHarness(async (h) => {
    const body = request();
    assert.equal((await h.call(body)).status, 200);
    const id = String(body.request_id);
    h.db.deleteRow(id);
    const calls = h.predictions();
    const res = await h.call(body);
    assert.equal(res.status, 200);
    const answer = await res.json();
    assert.deepEqual(answer.deleted, { id });
    assert.equal(answer.replayed, true);
    assert.equal(answer.generation, undefined);
    assert.equal(h.predictions(), calls);
    assert.equal(h.db.rows.has(id), false);
    assert.equal(h.db.limitsOf(h.user.id).used, 1);
    assert.equal(h.db.reservations.size, 0);
  });
});

Deno.test("a generation deleted while its retry was drawing is not stored again, and the retry's slot is given back", async () => {
  await withHarness(async (h) => {
    const body = request();
    const id = String(body.request_id);
    // The first send stored and charged the row; the person deletes it just as a retry reaches the store.
    assert.equal((await h.call(body)).status, 200);
    h.db.rows.delete(id); // the retry finds no row and reserves...
    const store = h.deps.store;
    const record = store.recordGeneration.bind(store);
    store.recordGeneration = (row) => {
      h.db.tombstones.set(id, h.user.id); // ...and the deletion lands while it draws
      return record(row);
    };
    const answer = await (await h.call(body)).json();
    assert.deepEqual(answer.deleted, { id });
    assert.equal(h.db.rows.has(id), false);
    assert.equal([...h.db.objects.keys()].some((k) => k.includes(id)), false);
    assert.equal(h.db.reservations.size, 0);
    assert.equal(h.db.limitsOf(h.user.id).used, 1);
  });
});

/** The events of a streamed answer (decision 123), in order: [name, data]. */
async function eventsOf(res: Response): Promise<[string, unknown][]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((block) => {
      const name = /^event: (.*)$/m.exec(block)?.[1] ?? "";
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "null";
      return [name, JSON.parse(data)];
    });
}

const EVENTS = { accept: "text/event-stream" };

Deno.test("a caller that asks for events hears drawn, the steps and the same answer; one row, one charge", async () => {
  await withHarness(async (h) => {
    const body = request({ seed: 7 });
    const res = await h.call(body, { headers: EVENTS });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/event-stream");
    const events = await eventsOf(res);
    assert.deepEqual(events.map(([name]) => name), ["drawn", "timing", "answer"]);
    assert.match(String(events[1][1]), /provider;dur=[\d.]+.*total;dur=[\d.]+$/);
    const answer = events[2][1] as { generation: { id: string; seed: number }; quota: { remaining: number } };
    assert.equal(answer.generation.id, body.request_id);
    assert.equal(answer.generation.seed, 7);
    assert.equal(answer.quota.remaining, 4);
    assert.equal(h.db.rows.size, 1);
    assert.equal(h.db.limitsOf(h.user.id).used, 1);
    // A replay asked for events has nothing to draw: its answer is a plain one.
    const again = await h.call(body, { headers: EVENTS });
    assert.equal(again.headers.get("content-type"), "application/json");
    assert.equal((await again.json()).replayed, true);
    assert.equal(h.db.limitsOf(h.user.id).used, 1);
  });
});

Deno.test("a failure before the image is drawn is the plain error answer, events asked or not", async () => {
  await withHarness(async (h) => {
    h.db.limitsOf(h.user.id).used = 5;
    const res = await h.call(request(), { headers: EVENTS });
    assert.equal(res.status, 429);
    assert.equal((await errorOf(res)).code, "daily_limit");
    assert.equal((await errorOf(await h.call(request(), { jwt: null, headers: EVENTS }))).status, 401);
  });
});

Deno.test("a failure after drawn arrives as an error event with its status, and the slot is given back", async () => {
  await withHarness(async (h) => {
    h.db.failures.set("putImage", appError("server_error", { detail: "storage down" }));
    const res = await h.call(request(), { headers: EVENTS });
    assert.equal(res.status, 200);
    const events = await eventsOf(res);
    assert.deepEqual(events.map(([name]) => name), ["drawn", "timing", "error"]);
    const failure = events[2][1] as { error: { code: string; retryable: boolean }; status: number };
    assert.equal(failure.error.code, "server_error");
    assert.equal(failure.status, 500);
    assert.equal(h.db.objects.size, 0);
    assert.equal(h.db.rows.size, 0);
    assert.equal(h.db.quota(h.user.id).remaining, 5);
    assert.ok(h.logs.some((l) => l.event === "generation.failed" && l.code === "server_error"));
  });
});
