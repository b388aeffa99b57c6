// The delete-account call: its answer read into a result, and a call refused for its session renewed once
// (decision 120), so a session ended elsewhere is forgotten here instead of shown as still signed in.
import { describe, expect, it, vi } from "vitest";
import { deleteAccount } from "#src/api/account.ts";
import type { InvokeFn } from "#src/api/generate.ts";

const refused = () => ({
  data: null,
  error: Object.assign(new Error("Edge Function returned a non-2xx status code"), {
    context: new Response(
      JSON.stringify({ error: { code: "auth_required", message: "Please sign in to delete your account" } }),
      { status: 401, headers: { "Content-Type": "application/json" } },
    ),
  }),
});
const deleted = () => ({ data: { deleted: true, images_removed: 2, already_deleted: false }, error: null });

function invokes(...answers: (() => { data: unknown; error: unknown })[]) {
  const calls: string[] = [];
  const invoke: InvokeFn = async (name) => {
    calls.push(name);
    return answers[Math.min(calls.length, answers.length) - 1]();
  };
  return { invoke, calls };
}

describe("deleteAccount", () => {
  it("answers what the server removed", async () => {
    const { invoke, calls } = invokes(deleted);
    const renew = vi.fn(async () => true);
    expect(await deleteAccount(invoke, renew)).toEqual({
      ok: true,
      value: { imagesRemoved: 2, alreadyDeleted: false },
    });
    expect(calls).toEqual(["delete-account"]);
    expect(renew).not.toHaveBeenCalled();
  });

  it("renews a refused session once and deletes with the renewed one", async () => {
    const { invoke, calls } = invokes(refused, deleted);
    const renew = vi.fn(async () => true);
    const result = await deleteAccount(invoke, renew);
    expect(result.ok).toBe(true);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(calls).toEqual(["delete-account", "delete-account"]);
  });

  it("keeps the server's sentence when the session cannot be renewed (it was ended elsewhere)", async () => {
    const { invoke, calls } = invokes(refused);
    const renew = vi.fn(async () => false);
    const result = await deleteAccount(invoke, renew);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("auth_required");
      expect(result.error.message).toBe("Please sign in to delete your account");
    }
    expect(renew).toHaveBeenCalledTimes(1);
    expect(calls).toEqual(["delete-account"]);
  });
});
