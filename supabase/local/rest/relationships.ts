// Relationships between tables for resource embedding, derived from foreign keys the way PostgREST's
// schema cache derives them: a foreign key of `child` referencing `parent` is many-to-one seen from
// the child and one-to-many seen from the parent, or one-to-one both ways when its columns are also
// unique in the child. Choosing the relationship for `target!hint` and the PGRST200 / PGRST201 errors
// follow PostgREST's findRel (src/library/PostgREST/Plan.hs) and their wording its Error.hs. Views
// and junction tables (many-to-many) have no relationships here: embedding them is refused (PGRST200),
// stricter than hosted.
import type { Catalog } from "./catalog.ts";
import { closest, type RestError, restError } from "./errors.ts";

export type Cardinality = "many-to-one" | "one-to-many" | "one-to-one";

export interface Relationship {
  constraint: string;
  /** The table the relationship is seen from, and the table it leads to. */
  origin: string;
  target: string;
  /** Pairs of (origin column, target column) the join compares. */
  columns: Array<[string, string]>;
  cardinality: Cardinality;
  /** The foreign key references its own table. */
  self: boolean;
  /** The side holding the foreign key: the origin (many-to-one, or one-to-one from it) or the target. */
  fkOnOrigin: boolean;
}

export const toOne = (r: Relationship) => r.cardinality !== "one-to-many";

/** Every relationship seen from `origin`. */
export function relationshipsOf(catalog: Catalog, origin: string): Relationship[] {
  const out: Relationship[] = [];
  for (const fk of catalog.foreignKeys) {
    const holder = catalog.tables.get(fk.table);
    const sorted = [...fk.columns].sort().join(",");
    const unique = (holder?.uniques ?? []).some((u) => [...u].sort().join(",") === sorted);
    const self = fk.table === fk.refTable;
    const pairs = fk.columns.map((c, i) => [c, fk.refColumns[i]] as [string, string]);
    if (fk.table === origin) {
      out.push({
        constraint: fk.name,
        origin,
        target: fk.refTable,
        columns: pairs,
        cardinality: unique ? "one-to-one" : "many-to-one",
        self,
        fkOnOrigin: true,
      });
    }
    if (fk.refTable === origin) {
      out.push({
        constraint: fk.name,
        origin,
        target: fk.table,
        columns: pairs.map(([c, r]) => [r, c]),
        cardinality: unique ? "one-to-one" : "one-to-many",
        self,
        fkOnOrigin: false,
      });
    }
  }
  return out;
}

const single = (r: Relationship, side: 0 | 1, name: string) => r.columns.length === 1 && r.columns[0][side] === name;

/** The one relationship `origin → target!hint` names, or PGRST200 / PGRST201 worded as PostgREST's. */
export function findRelationship(
  catalog: Catalog,
  origin: string,
  target: string,
  hint: string | undefined,
): Relationship | RestError {
  const all = relationshipsOf(catalog, origin);
  const matches = all.filter((r) => {
    if (r.self) {
      if (hint === undefined) {
        // /family?select=children:family(*) is one-to-many; /family?select=parent_id(*) many-to-one.
        return (r.target === target && !r.fkOnOrigin) || (single(r, 0, target) && r.fkOnOrigin);
      }
      return r.target === target && !r.fkOnOrigin && single(r, 1, hint);
    }
    if (hint === undefined) {
      return r.target === target || r.constraint === target || single(r, 0, target);
    }
    return r.target === target && (r.constraint === hint || single(r, 0, hint) || single(r, 1, hint));
  });
  if (matches.length === 1) return matches[0];
  if (!matches.length) {
    const targets = all.map((r) => r.target);
    const near = all.length ? closest(target, targets) : closest(origin, catalog.tables.keys());
    const suggestion = all.length && near && near !== target ?
      `Perhaps you meant '${near}' instead of '${target}'.` :
      !all.length && near && near !== origin ?
      `Perhaps you meant '${near}' instead of '${origin}'.` :
      null;
    return restError(
      400,
      "PGRST200",
      `Could not find a relationship between '${origin}' and '${target}' in the schema cache`,
      `Searched for a foreign key relationship between '${origin}' and '${target}'${
        hint === undefined ? "" : ` using the hint '${hint}'`
      } in the schema 'public', but no matches were found.`,
      suggestion,
    );
  }
  const fmt = (cols: string[]) => `(${cols.join(", ")})`;
  const details = matches.map((r) => ({
    cardinality: r.cardinality,
    embedding: `${r.origin} with ${r.target}`,
    relationship: `${r.constraint} using ${r.origin}${fmt(r.columns.map((c) => c[0]))} and ${r.target}${
      fmt(
        r.columns.map((c) => c[1]),
      )
    }`,
  }));
  const error = restError(
    300,
    "PGRST201",
    `Could not embed because more than one relationship was found for '${origin}' and '${target}'`,
    null,
    `Try changing '${target}' to one of the following: ${
      matches
        .map((r) => `'${r.target}!${r.constraint}'`)
        .join(", ")
    }. Find the desired relationship in the 'details' key.`,
  );
  // PostgREST's details here are a JSON array, not a string.
  return { ...error, details: details as unknown as string };
}
