// A request's variation (decision 155): which of the person's images it varies, and how. Parsed with the
// rest of the body (nothing is looked up for a request that is malformed), then checked against the parent
// row once the caller is known: the parent must exist and be the caller's own. A parent that is someone
// else's is answered exactly as one that does not exist, so no request learns whose an id is. A replay of a
// stored variation is not checked again (its row already holds the link).
import { invalidInput, ok, type Result } from "../_shared/errors.ts";
import type { GenerationStore } from "../_shared/generation-store.ts";
import { isVaryKind, type VaryKind } from "../_shared/vocabulary/variations.ts";

export interface Variation {
  parentId: string;
  kind: VaryKind;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const VARIATION_MESSAGES = {
  shape: 'variation must be { "parent_id": "<uuid>", "kind": "subtle" | "strong" }',
  parent: "The image to vary is not one of yours (it may have been deleted)",
} as const;

/** The body's `variation`: absent or null is none; anything else must be exactly its shape. */
export function parseVariation(body: unknown): Result<Variation | null> {
  const v = (body as { variation?: unknown } | null)?.variation;
  if (v === undefined || v === null) return ok(null);
  if (typeof v !== "object" || Array.isArray(v)) return { ok: false, error: invalidInput(VARIATION_MESSAGES.shape) };
  const { parent_id: parentId, kind, ...rest } = v as Record<string, unknown>;
  if (typeof parentId !== "string" || !UUID.test(parentId) || !isVaryKind(kind) || Object.keys(rest).length) {
    return { ok: false, error: invalidInput(VARIATION_MESSAGES.shape) };
  }
  return ok({ parentId: parentId.toLowerCase(), kind });
}

/** The parent is a generation of `userId`; else 404 invalid_input, whether it is missing or another's. */
export async function checkParent(store: GenerationStore, userId: string, v: Variation): Promise<Result<void>> {
  const parent = await store.findGeneration(v.parentId);
  if (!parent.ok) return parent;
  if (!parent.value || parent.value.user_id !== userId) {
    return { ok: false, error: invalidInput(VARIATION_MESSAGES.parent, 404) };
  }
  return ok(undefined);
}
