// Stripe's list answers (`{object:"list", data, has_more, url}`, newest first, paged with starting_after or
// ending_before) and its `expand[]` of ids into the objects they name.
import { invalid, noSuch } from "./errors.ts";
import type { Params } from "./form.ts";
import { limitOf, str } from "./params.ts";
import type { Obj, Store } from "./store.ts";

/** The `created[gt|gte|lt|lte]` filter of a list. */
function createdWithin(range: Params | string | undefined): (o: Obj) => boolean {
  if (range === undefined) return () => true;
  if (typeof range === "string") return (o) => o.created === Number(range);
  const bound = (k: string) => (typeof range[k] === "string" ? Number(range[k]) : undefined);
  const [gt, gte, lt, lte] = ["gt", "gte", "lt", "lte"].map(bound);
  return (o) =>
    (gt === undefined || o.created > gt) && (gte === undefined || o.created >= gte) &&
    (lt === undefined || o.created < lt) && (lte === undefined || o.created <= lte);
}

export function listOf(items: Obj[], p: Params, url: string, what: string): Record<string, unknown> {
  const limit = limitOf(p);
  const after = str(p, "starting_after");
  const before = str(p, "ending_before");
  if (after && before) throw invalid("You may only specify one of these parameters: starting_after, ending_before.");
  items = items.filter(createdWithin(p.created as Params | string | undefined));
  let data: Obj[];
  let hasMore: boolean;
  if (before) {
    const i = items.findIndex((o) => o.id === before);
    if (i < 0) throw noSuch(what, before, "ending_before");
    const earlier = items.slice(0, i);
    data = earlier.slice(Math.max(0, earlier.length - limit));
    hasMore = earlier.length > limit;
  } else {
    const i = after ? items.findIndex((o) => o.id === after) : -1;
    if (after && i < 0) throw noSuch(what, after, "starting_after");
    const later = items.slice(i + 1);
    data = later.slice(0, limit);
    hasMore = later.length > limit;
  }
  return { object: "list", data: data.map((o) => structuredClone(o)), has_more: hasMore, url };
}

const MAX_EXPAND_DEPTH = 4;

function expandPath(value: unknown, path: string[], store: Store, full: string): unknown {
  if (!path.length || value === null || typeof value !== "object") return value;
  const [head, ...rest] = path;
  const node = value as Record<string, unknown>;
  if (node.object === "list" && head === "data" && Array.isArray(node.data)) {
    node.data = node.data.map((item) => expandPath(item, rest, store, full));
    return node;
  }
  if (!Object.hasOwn(node, head)) throw invalid(`This property cannot be expanded (${full}).`, "expand");
  let field = node[head];
  if (typeof field === "string") {
    const found = store.get(field);
    if (!found || rest.length === 0 && found.object === undefined) {
      throw invalid(`This property cannot be expanded (${full}).`, "expand");
    }
    field = structuredClone(found);
  } else if (rest.length === 0 && (field === null || typeof field !== "object")) {
    if (field !== null) throw invalid(`This property cannot be expanded (${full}).`, "expand");
  }
  node[head] = expandPath(field, rest, store, full);
  return node;
}

/** Applies `expand[]` to an answer (a copy): each path's ids replaced by their objects. */
export function expand(answer: Record<string, unknown>, p: Params, store: Store): Record<string, unknown> {
  const paths = (p.expand as string[] | undefined) ?? [];
  for (const path of paths) {
    const parts = path.split(".");
    if (parts.length > MAX_EXPAND_DEPTH) {
      throw invalid(
        `You cannot expand more than ${MAX_EXPAND_DEPTH} levels of a property. Property: ${path}`,
        "expand",
      );
    }
    expandPath(answer, parts, store, path);
  }
  return answer;
}

/** The stored object `id` if it is of `object` type and not deleted; else Stripe's 404. */
export function fetchObj(store: Store, id: string, object: string, what = object): Obj {
  const o = store.get(id);
  if (!o || o.object !== object || o.deleted) throw noSuch(what, id);
  return o;
}
