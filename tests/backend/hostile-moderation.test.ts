// The moderation calls through REST against bad and hostile input, on PGlite and on PostgreSQL: a report
// of a missing or unpublished image is 404, a reason outside the list or an over-long note is 400, a second
// report by the same person changes nothing, a non-operator reaching an operator call is 401 (visitor) or
// 403 (signed in), and a client cannot publish or make itself an operator. Then every call gets hostile
// values in every argument; all answers are tallied as the hostile-input suite does, and none may be a 5xx,
// a hang or a reset. The operator is made with the documented command (scripts/operator.mjs) and signs in
// again for a token carrying the role, as a person would.
import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { REPORT_NOTE_MAX_CHARS } from "#shared/vocabulary/moderation.ts";
import { main as operatorCommand } from "../../scripts/operator.mjs";
import { clientsFor, describeOnBackends, people } from "../support/backend-suite.ts";
import { newUser, type NewUser } from "../support/clients.ts";
import {
  authHeaders,
  BAD,
  deepArray,
  HOSTILE_TEXT,
  jsonWith,
  type ProbeResult,
  report,
  send,
} from "../support/hostile.ts";

type Res = { status: number; body: Record<string, unknown> | null; text: string };

describeOnBackends("moderation calls under bad input on $title", { prefix: "moderation" }, (b, { title, skip }) => {
  const { server } = clientsFor(b);
  const [owner, reporter, stranger, operator] = people(b, "owner", "reporter", "stranger", "operator");
  let published: string;
  let unpublished: string;
  const tokens: Record<string, string | null> = {};

  const tokenOf = async (u: NewUser) => (await u.client.auth.getSession()).data.session!.access_token;
  /** Runs `npm run operator -- <argv>` against this backend; its exit code, and what it said when it failed. */
  const command = async (...argv: string[]) => {
    const said: string[] = [];
    const code = await operatorCommand(argv, {
      // As the README says to run it against npm start: no key, the backend's data directory and port.
      env: { DATA_DIR: b.dataDir, API_PORT: new URL(b.url).port },
      out: () => {},
      err: (line) => said.push(line),
    });
    return code === 0 ? 0 : `${code}: ${said.join(" ")}`;
  };
  const image = async (publish: boolean) => {
    const id = randomUUID();
    const row = { id, user_id: owner.id, prompt: "a quiet harbour", provider: "builtin", model: "procedural-v1" };
    const { error } = await server
      .from("generations")
      .insert({ ...row, image_path: `${owner.id}/${id}.png`, is_public: publish });
    expect(error).toBeNull();
    return id;
  };

  beforeAll(async () => {
    if (skip) return;
    expect(await command("grant", operator.email)).toBe(0);
    // The role reaches the session at the next sign-in (or token refresh), as on hosted.
    await operator.client.auth.signInWithPassword({ email: operator.email, password: operator.password });
    published = await image(true);
    unpublished = await image(false);
    for (const [name, u] of Object.entries({ owner, reporter, stranger, operator })) tokens[name] = await tokenOf(u);
    tokens.anon = null;
  }, 120_000);

  const rpc = async (name: string, body: string | Record<string, unknown>, as: string | null): Promise<Res> => {
    const res = await fetch(`${b.url}/rest/v1/rpc/${name}`, {
      method: "POST",
      headers: authHeaders(b, as),
      body: typeof body === "string" ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* asserted by the caller */
    }
    return { status: res.status, body: parsed, text };
  };
  const expectRefused = (r: Res, status: number, code: string) => {
    expect(r.status, r.text).toBe(status);
    expect(r.body?.code, r.text).toBe(code);
  };
  const reportOf = (id: string, reason = "violence", note?: string) => ({
    p_generation_id: id,
    p_reason: reason,
    ...(note === undefined ? {} : { p_note: note }),
  });

  it.skipIf(skip)("answers bad reports with 404 and 400, and a second report with the first answer", async () => {
    expectRefused(await rpc("report_generation", reportOf(randomUUID()), tokens.reporter), 404, "PT404");
    expectRefused(await rpc("report_generation", reportOf(unpublished), tokens.reporter), 404, "PT404");
    expectRefused(await rpc("report_generation", reportOf(published, "spam"), tokens.reporter), 400, "22023");
    const long = "n".repeat(REPORT_NOTE_MAX_CHARS + 1);
    expectRefused(await rpc("report_generation", reportOf(published, "hate", long), tokens.reporter), 400, "22001");
    expectRefused(await rpc("report_generation", reportOf(published), tokens.owner), 400, "22023");
    expectRefused(await rpc("report_generation", reportOf(published), tokens.anon), 401, "42501");

    const first = await rpc("report_generation", reportOf(published, "hate", "a slur"), tokens.reporter);
    expect(first.status, first.text).toBe(200);
    const again = await rpc("report_generation", reportOf(published, "sexual", "other words"), tokens.reporter);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    const { data } = await server.from("generation_reports").select("reason, note").eq("generation_id", published);
    expect(data).toEqual([{ reason: "hate", note: "a slur" }]);
    // Hidden for its reporter at once, not for the others.
    const seen = async (as: string | null) =>
      (await send(b, `/rest/v1/generations?id=eq.${published}&select=id`, { headers: authHeaders(b, as) })).detail;
    expect(JSON.parse(await seen(tokens.reporter))).toEqual([]);
    expect(JSON.parse(await seen(tokens.stranger))).toEqual([{ id: published }]);
  });

  it.skipIf(skip)(
    "refuses operator calls to visitors (401) and to signed-in people who are not operators (403)",
    async () => {
      const calls: [string, Record<string, unknown>][] = [
        ["moderation_queue", {}],
        ["moderate_generation", { p_generation_id: published, p_action: "unpublish", p_reason: "spam" }],
      ];
      for (const [name, args] of calls) {
        expectRefused(await rpc(name, args, tokens.anon), 401, "42501");
        expectRefused(await rpc(name, args, tokens.stranger), 403, "42501");
        expectRefused(await rpc(name, args, tokens.owner), 403, "42501");
      }
      const terms = await send(b, "/rest/v1/moderation_terms", {
        method: "POST",
        headers: authHeaders(b, tokens.stranger),
        body: JSON.stringify({ term: "sneaky" }),
      });
      expect(terms.status).toBe(403);
      const queue = await rpc("moderation_queue", {}, tokens.operator);
      expect(queue.status, queue.text).toBe(200);
      expect((await server.from("generations").select("is_public").eq("id", published).single()).data).toEqual({
        is_public: true,
      });
    },
  );

  it.skipIf(skip)("keeps publishing and the operator role out of a client's hands", async () => {
    const patch = (is_public: boolean) =>
      send(b, `/rest/v1/generations?id=eq.${unpublished}`, {
        method: "PATCH",
        headers: authHeaders(b, tokens.owner),
        body: JSON.stringify({ is_public }),
      });
    const publish = await patch(true);
    expect(publish.status, publish.detail).toBe(403);
    expect(JSON.parse(publish.detail).code).toBe("42501");
    expect((await patch(false)).status).toBe(204);
    const { error } = await stranger.client.auth.updateUser({ data: {}, app_metadata: { role: "operator" } } as never);
    expect(error?.status).toBe(403);
    expect((await stranger.client.auth.refreshSession()).data.session?.user.app_metadata.role).toBeUndefined();
  });

  it.skipIf(skip)("grants and revokes the role with the command; a revoked operator is refused at once", async () => {
    const former = await newUser(b, "former");
    expect(await command("grant", former.email.toUpperCase())).toBe(0);
    const { data } = await former.client.auth.refreshSession();
    expect(data.session?.user.app_metadata.role).toBe("operator");
    const token = data.session!.access_token;
    expect((await rpc("moderation_queue", {}, token)).status).toBe(200);
    expect(await command("revoke", former.email)).toBe(0);
    expectRefused(await rpc("moderation_queue", {}, token), 403, "42501");
    expect(await command("grant", "nobody-here@example.test")).toMatch(/^1: Nobody has signed up/);
    expect(await command("promote", former.email)).toMatch(/^2: Usage/);
  });

  it.skipIf(skip)("answers hostile values in every argument of every call with a 4xx", async () => {
    const results: ProbeResult[] = [];
    const probe = async (family: string, name: string, body: string, as: string | null) => {
      const answer = await send(b, `/rest/v1/rpc/${name}`, { method: "POST", headers: authHeaders(b, as), body });
      results.push({ database: title, family, probe: `${name} ${body.slice(0, 60)}`, answer });
      return answer;
    };
    const reportArgs = { p_generation_id: published, p_reason: "hate" };
    const modArgs = { p_generation_id: published, p_action: "unpublish", p_reason: "spam" };
    const bodies: [string, string][] = [
      ["report_generation", JSON.stringify({ ...reportArgs, p_generation_id: "1 or 1=1" })],
      ["report_generation", JSON.stringify({ ...reportArgs, p_generation_id: null })],
      ["report_generation", JSON.stringify({ ...reportArgs, p_reason: 5 })],
      ["report_generation", JSON.stringify({ ...reportArgs, p_reason: ["hate"] })],
      ["report_generation", JSON.stringify({ ...reportArgs, p_note: "x".repeat(600_000) })],
      ["report_generation", JSON.stringify({ ...reportArgs, extra: 1 })],
      ["report_generation", `{"p_generation_id":"${published}","p_reason":${deepArray(20_000)}}`],
      ["moderate_generation", JSON.stringify({ ...modArgs, p_suspend_until: "next tuesday" })],
      ["moderate_generation", JSON.stringify({ ...modArgs, p_action: "suspend", p_suspend_until: "-infinity" })],
      ["moderate_generation", JSON.stringify({ ...modArgs, p_action: "DROP TABLE generations" })],
      ["moderate_generation", JSON.stringify({ ...modArgs, p_reason: "r".repeat(501) })],
      ["moderate_generation", JSON.stringify({ ...modArgs, p_generation_id: randomUUID() })],
      ["moderation_queue", JSON.stringify({ p_limit: "all" })],
      ["moderation_queue", JSON.stringify({ p_limit: 99_999_999_999 })],
    ];
    for (const [name, body] of bodies) {
      const answer = await probe(
        "bad values",
        name,
        body,
        name === "report_generation" ? tokens.stranger : tokens.operator,
      );
      expect(answer.cls, `${name} ${body.slice(0, 80)}: ${answer.detail}`).toMatch(/^[24]xx$/);
    }
    for (const text of Object.values(HOSTILE_TEXT)) {
      const fields = { p_generation_id: published };
      await probe(
        "hostile text",
        "report_generation",
        jsonWith({ ...fields, p_reason: "hate" }, { p_note: text }),
        tokens.stranger,
      );
      await probe("hostile text", "report_generation", jsonWith(fields, { p_reason: text }), tokens.stranger);
      await probe(
        "hostile text",
        "moderate_generation",
        jsonWith({ ...fields, p_action: "restore" }, { p_reason: text }),
        tokens.operator,
      );
    }
    console.log(report(results));
    expect(results.filter((r) => BAD.has(r.answer.cls)).map((r) => `${r.probe}: ${r.answer.detail}`)).toEqual([]);
    const queue = await rpc("moderation_queue", { p_limit: 5 }, tokens.operator);
    expect(queue.status, queue.text).toBe(200);
  });
});
