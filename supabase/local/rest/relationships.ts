// Relationships between tables for resource embedding, derived from foreign keys the way PostgREST's
// schema cache derives them: a foreign key of `child` referencing `parent` is many-to-one seen from
// the child and one-to-many seen from the parent, or one-to-one both ways when its columns are also
// unique in the child. Choosing the relationship for `target!hint` and the PGRST200 / PGRST201 errors
// follow PostgREST's findRel (src/PostgREST/Plan.hs) and their wording its Error.hs. A junction table
// (foreign keys to both sides, whose columns all belong to its primary key: PostgREST's addM2MRels)
// makes a many-to-many relationship between the two tables it references. Views take part in the
// relationships of the keys they show (rest/views.ts), as in PostgREST; a view target is named by its
// own name, never by the constraint's or a column's (findRel's `not relFTableIsView`).
import type { Catalog } from "./catalog.ts";
import { closest, type RestError, restError } from "./errors.ts";

export type Cardinality = "many-to-one" | "one-to-many" | "one-to-one" | "many-to-many";

/** The table between the two sides of a many-to-many relationship, and its two foreign keys. */
interface Junction {
  table: string;
  /** The junction's foreign key to the origin, and its pairs of (origin column, junction column). */
  originConstraint: string;
  originColumns: Array<[string, string]>;
  /** The junction's foreign key to the target, and its pairs of (target column, junction column). */
  targetConstraint: string;
  targetColumns: Array<[string, string]>;
}

export interface Relationship {
  constraint: string;
  /** The table the relationship is seen from, and the table it leads to. */
  origin: string;
  target: string;
  /** Pairs of (origin column, target column) the join compares; empty for many-to-many. */
  columns: Array<[string, string]>;
  cardinality: Cardinality;
  /** The foreign key references its own table. */
  self: boolean;
  /** The side holding the foreign key: the origin (many-to-one, or one-to-one from it) or the target. */
  fkOnOrigin: boolean;
  /** The target is a view (it is then not found by the constraint's or a column's name). */
  targetIsView?: boolean;
  /** Many-to-many only: the table the join goes through. */
  junction?: Junction;
  /** Computed relationships only: the function whose rows the embed reads, given the origin's row. */
  computed?: { schema: string; function: string };
}

export const toOne = (r: Relationship) => r.cardinality === "many-to-one" || r.cardinality === "one-to-one";

/**
 * Many-to-many relationships from `origin`, as PostgREST's addM2MRels finds them: a table holding two
 * different many-to-one foreign keys, one to `origin` and one to any table, whose columns together are
 * all part of its primary key.
 */
function manyToManyOf(catalog: Catalog, origin: string): Relationship[] {
  const out: Relationship[] = [];
  const manyToOne = catalog.foreignKeys.filter((fk) => !fk.oneToOne);
  for (const toOrigin of manyToOne) {
    if (toOrigin.refTable !== origin) continue;
    const pk = new Set(catalog.tables.get(toOrigin.table)?.primaryKey ?? []);
    for (const toTarget of manyToOne) {
      if (toTarget.table !== toOrigin.table || toTarget.name === toOrigin.name) continue;
      if (![...toOrigin.columns, ...toTarget.columns].every((c) => pk.has(c))) continue;
      out.push({
        constraint: toOrigin.table,
        origin,
        target: toTarget.refTable,
        columns: [],
        cardinality: "many-to-many",
        self: origin === toTarget.refTable,
        fkOnOrigin: false,
        ...(toTarget.refIsView ? { targetIsView: true } : {}),
        junction: {
          table: toOrigin.table,
          originConstraint: toOrigin.name,
          originColumns: toOrigin.refColumns.map((c, i) => [c, toOrigin.columns[i]]),
          targetConstraint: toTarget.name,
          targetColumns: toTarget.refColumns.map((c, i) => [c, toTarget.columns[i]]),
        },
      });
    }
  }
  return out;
}

/** Every relationship seen from `origin`. */
export function relationshipsOf(catalog: Catalog, origin: string): Relationship[] {
  const out: Relationship[] = [];
  for (const fk of catalog.foreignKeys) {
    const unique = fk.oneToOne;
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
        ...(fk.refIsView ? { targetIsView: true } : {}),
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
        ...(fk.tableIsView ? { targetIsView: true } : {}),
      });
    }
  }
  const detected = [...out, ...manyToManyOf(catalog, origin)];
  const computed: Relationship[] = (catalog.computedRelationships ?? [])
    .filter((c) => c.table === origin)
    .map((c) => ({
      constraint: c.function,
      origin,
      target: c.target,
      columns: [],
      cardinality: c.toOne ? "many-to-one" : "one-to-many",
      self: c.target === origin,
      fkOnOrigin: false,
      computed: { schema: c.schema, function: c.function },
    }));
  // A computed relationship named after a table replaces the relationships detected with that table
  // (PostgREST's getOverrideRelationshipsMap), so a function can settle an ambiguous embed.
  const schema = catalog.schema ?? "public";
  const replaced = new Set(computed.filter((c) => c.computed!.schema === schema).map((c) => c.constraint));
  return [...detected.filter((r) => !replaced.has(r.target)), ...computed];
}

// Many-to-many relationships have no columns of their own, so neither test ever matches them.
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
    // A computed relationship is named by its function alone; a hint changes nothing.
    if (r.computed) return r.computed.function === target;
    const m2m = r.cardinality === "many-to-many";
    if (r.self) {
      // A self-referencing many-to-many relationship never matches, as in PostgREST (which asks for a
      // computed relationship there).
      if (hint === undefined) {
        // /family?select=children:family(*) is one-to-many; /family?select=parent_id(*) many-to-one.
        return (r.target === target && r.cardinality === "one-to-many") ||
          (single(r, 0, target) && r.cardinality === "many-to-one");
      }
      return r.target === target && r.cardinality === "one-to-many" && single(r, 1, hint);
    }
    if (hint === undefined) {
      return r.target === target || (!r.targetIsView && ((!m2m && r.constraint === target) || single(r, 0, target)));
    }
    // A many-to-many relationship is named by its junction table (`films!roles`).
    return r.target === target &&
      (r.constraint === hint || single(r, 0, hint) || single(r, 1, hint));
  });
  if (matches.length === 1) return matches[0];
  // PostgREST lists the candidates in its relationships' order: by target, then self ones last, then
  // one-to-many, many-to-one, one-to-one, many-to-many, then by constraint (or junction) name.
  const rank: Record<Cardinality, number> = { "one-to-many": 0, "many-to-one": 1, "one-to-one": 2, "many-to-many": 3 };
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  matches.sort((a, b) =>
    cmp(a.target, b.target) || Number(a.self) - Number(b.self) || rank[a.cardinality] - rank[b.cardinality] ||
    cmp(a.constraint, b.constraint)
  );
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
      } in the schema '${catalog.schema ?? "public"}', but no matches were found.`,
      suggestion,
    );
  }
  const fmt = (cols: string[]) => `(${cols.join(", ")})`;
  const details = matches.map((r) => ({
    cardinality: r.cardinality,
    embedding: `${r.origin} with ${r.target}`,
    relationship: r.junction ?
      `${r.junction.table} using ${r.junction.originConstraint}${
        fmt(r.junction.originColumns.map((c) => c[1]))
      } and ${r.junction.targetConstraint}${fmt(r.junction.targetColumns.map((c) => c[1]))}` :
      `${r.constraint} using ${r.origin}${fmt(r.columns.map((c) => c[0]))} and ${r.target}${
        fmt(r.columns.map((c) => c[1]))
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
