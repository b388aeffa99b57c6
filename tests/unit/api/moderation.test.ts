// The client's calls of reporting and moderation (issue 42): what each sends, and how a refusal's status
// reads (404 gone, 400 invalid, 401/403 denied, anything else failed); and the page's reading of a token's
// operator role (only app_metadata.role counts: user_metadata is the person's own to write).
import { beforeEach, describe, expect, it, vi } from "vitest";

const rpc = vi.fn();
const getSession = vi.fn();
const insert = vi.fn();
vi.mock("#src/api/client.ts", () => ({
  supabase: () => ({ rpc, auth: { getSession }, from: () => ({ insert }) }),
}));

const {
  addTerm,
  isOperatorClaims,
  moderateGeneration,
  moderationQueue,
  reportGeneration,
  sessionIsOperator,
  tokenClaims,
} = await import("#src/api/moderation.ts");

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const jwt = (claims: unknown) => `${b64url({ alg: "HS256" })}.${b64url(claims)}.signature`;

beforeEach(() => {
  rpc.mockReset();
  getSession.mockReset();
  insert.mockReset();
});

describe("a report", () => {
  it("sends the id, the reason and the trimmed note (none when blank)", async () => {
    rpc.mockResolvedValue({ data: { generation_id: "g1" }, error: null, status: 200 });
    expect((await reportGeneration("g1", "hate", "  see the sign ")).ok).toBe(true);
    expect(rpc).toHaveBeenLastCalledWith("report_generation", {
      p_generation_id: "g1",
      p_reason: "hate",
      p_note: "see the sign",
    });
    await reportGeneration("g1", "hate", "   ");
    expect(rpc).toHaveBeenLastCalledWith("report_generation", {
      p_generation_id: "g1",
      p_reason: "hate",
      p_note: null,
    });
  });

  it("words a refusal of bad input as the database does, and others as the catalogue does", async () => {
    rpc.mockResolvedValueOnce({
      data: null,
      error: {
        code: "22023",
        message: "you cannot report your own image",
        details: "Unpublish or delete your own image instead.",
      },
      status: 400,
    });
    const own = await reportGeneration("g1", "hate", "");
    expect(!own.ok && own.error.error.message).toBe(
      "You cannot report your own image. Unpublish or delete your own image instead.",
    );
    rpc.mockResolvedValueOnce({
      data: null,
      error: { code: "PT404", message: "no published image with this id" },
      status: 404,
    });
    const gone = await reportGeneration("g1", "hate", "");
    expect(!gone.ok && gone.error.error.message).not.toContain("no published image");
  });

  it("reads a refusal by its status", async () => {
    const refused = async (status: number) => {
      rpc.mockResolvedValueOnce({ data: null, error: { code: "X", message: "refused" }, status });
      const result = await reportGeneration("g1", "hate", "");
      return result.ok ? "ok" : result.error.kind;
    };
    expect(await refused(404)).toBe("gone");
    expect(await refused(400)).toBe("invalid");
    expect(await refused(401)).toBe("denied");
    expect(await refused(403)).toBe("denied");
    expect(await refused(500)).toBe("failed");
    rpc.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    const thrown = await reportGeneration("g1", "hate", "");
    expect(!thrown.ok && thrown.error.kind).toBe("failed");
  });
});

describe("an operator's calls", () => {
  it("sends a suspension's end only with a suspension", async () => {
    rpc.mockResolvedValue({ data: {}, error: null, status: 200 });
    await moderateGeneration("g1", "suspend", " Spam ", "2026-12-01T00:00:00.000Z");
    expect(rpc).toHaveBeenLastCalledWith("moderate_generation", {
      p_generation_id: "g1",
      p_action: "suspend",
      p_reason: "Spam",
      p_suspend_until: "2026-12-01T00:00:00.000Z",
    });
    await moderateGeneration("g1", "restore", "", "2026-12-01T00:00:00.000Z");
    expect(rpc.mock.lastCall?.[1]).toMatchObject({ p_action: "restore", p_suspend_until: null });
  });

  it("reads the queue's lists as lists", async () => {
    rpc.mockResolvedValue({
      data: [{ generation_id: "g1", report_count: "2", reasons: null, reports: null }],
      error: null,
      status: 200,
    });
    const queue = await moderationQueue();
    expect(queue.ok && queue.value[0]).toMatchObject({ report_count: 2, reasons: [], reports: [] });
  });

  it("takes a term already in the list as added", async () => {
    insert.mockResolvedValueOnce({ data: null, error: { code: "23505", message: "duplicate key" }, status: 409 });
    expect((await addTerm("dup")).ok).toBe(true);
    insert.mockResolvedValueOnce({ data: null, error: { code: "42501", message: "denied" }, status: 403 });
    const refused = await addTerm("x");
    expect(!refused.ok && refused.error.kind).toBe("denied");
  });
});

describe("the operator role in a token", () => {
  it("is read from app_metadata only", () => {
    expect(isOperatorClaims(tokenClaims(jwt({ app_metadata: { role: "operator" } })))).toBe(true);
    expect(isOperatorClaims(tokenClaims(jwt({ user_metadata: { role: "operator" }, app_metadata: {} })))).toBe(false);
    expect(isOperatorClaims(tokenClaims(jwt({ role: "operator" })))).toBe(false);
    expect(isOperatorClaims(tokenClaims("not-a-token"))).toBe(false);
    expect(tokenClaims(jwt({ email: "zoë@example.com" }))).toEqual({ email: "zoë@example.com" });
  });

  it("comes from the current session, and a visitor has none", async () => {
    getSession.mockResolvedValueOnce({
      data: { session: { access_token: jwt({ app_metadata: { role: "operator" } }) } },
    });
    expect(await sessionIsOperator()).toBe(true);
    getSession.mockResolvedValueOnce({ data: { session: null } });
    expect(await sessionIsOperator()).toBe(false);
  });
});
