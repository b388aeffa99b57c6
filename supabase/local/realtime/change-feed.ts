// Row changes of published tables, from NOTIFY 'local_realtime' (sent by the local.notify_change()
// trigger) to each subscribed channel that may see them, by Supabase Realtime's rules: an INSERT or
// UPDATE is delivered only if the subscriber could select the row, checked by re-reading it by primary
// key as the subscriber (asRole, so the table's RLS and column grants decide) when the table has RLS
// on, and shown as the role's column grants allow when it has not; a DELETE by the rule of
// deliverDelete. Changes are handled one at a time, in commit order, so a subscriber never sees an
// UPDATE before the INSERT it follows. commit_timestamp is the moment the commit was announced.
import { asRole, type Claims, type Db, quoteIdent } from "../db.ts";
import { type Binding, bindingWants, type ChangeType, filterMatches, type RegexTest } from "./bindings.ts";
import type { Catalog, Column, TableInfo } from "./catalog.ts";

/** A joined channel, as the change feed sees it. */
export interface Subscriber {
  /** The subscriber's current claims (they change when the client sends a new access_token). */
  claims(): Claims;
  bindings: Binding[];
  deliver(payload: Record<string, unknown>): void;
}

interface Change {
  schema: string;
  table: string;
  type: ChangeType;
  commit_timestamp: string;
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  truncated?: boolean;
}

/** Hosted's poll_max_record_bytes: past it, a change carries only its small values and an error. */
const MAX_RECORD_BYTES = 1_048_576;
/** What wal2json adds per column around a value ({"name":…,"type":…,"typeoid":…,"value":…}), and more. */
const LOG_BYTES_PER_COLUMN = 128;

/** Notifications further apart than this are never taken for one transaction's. */
const SAME_COMMIT_MS = 50;

export interface ChangeFeed {
  /** Handles one NOTIFY payload (queued behind the ones before it). */
  push(payload: string): void;
  /** Resolves once every queued change has been handled. */
  drain(): Promise<void>;
}

export function createChangeFeed(
  db: Db,
  catalog: Catalog,
  subscribers: ReadonlySet<Subscriber>,
  log: (msg: string, extra?: Record<string, unknown>) => void,
): ChangeFeed {
  let queue: Promise<void> = Promise.resolve();
  // The trigger can only stamp a change with its transaction's start (now()); hosted stamps it with
  // the commit. A transaction's notifications arrive together once it commits, so the first one's
  // arrival time is taken for it and for those that follow with the same start stamp.
  let lastStarted = "";
  let lastCommitted = "";
  let lastArrival = 0;

  async function handle(change: Change): Promise<void> {
    if (!subscribers.size) return;
    const info = await catalog.get(change.schema, change.table);
    if (!info) return;
    const interested: { sub: Subscriber; bindings: Binding[] }[] = [];
    for (const sub of subscribers) {
      const bindings = sub.bindings.filter((b) => bindingWants(b, change.schema, change.table, change.type));
      if (bindings.length && !expired(sub.claims())) interested.push({ sub, bindings });
    }
    if (!interested.length) return;
    if (change.type === "DELETE") await deliverDelete(change, info, interested);
    else await deliverUpsert(change, info, interested);
  }

  /**
   * Supabase Realtime's rule for a DELETE (its SQL realtime.apply_rls): the row is gone, so RLS cannot
   * be asked and is not. The change is matched against the old values the write-ahead log carries, its
   * replica identity (with DEFAULT only the primary key, so a filter on any other column never matches:
   * "delete events are not filterable"), and sent to every subscriber of the table whose bindings match,
   * whatever their role. Each gets the old values their role may select; with RLS on, only the primary key.
   */
  async function deliverDelete(
    change: Change,
    info: TableInfo,
    interested: { sub: Subscriber; bindings: Binding[] }[],
  ) {
    const identity = pick(change.old_record ?? {}, info.identity);
    for (const { sub, bindings } of interested) {
      const matched = await matching(bindings, identity, info);
      if (!matched.length) continue;
      const columns = columnsFor(info, sub.claims());
      const shown = columns
        .map((c) => c.name)
        .filter((n) => n in identity && (!info.rls || info.primaryKey.includes(n)));
      // Nothing the role may see leaves old_record null, as hosted sends it (supabase-js reads it as {}).
      deliverBySelection(sub, matched, info, change, columns, {
        old_record: shown.length ? pick(identity, shown) : null,
      });
    }
  }

  async function deliverUpsert(
    change: Change,
    info: TableInfo,
    interested: { sub: Subscriber; bindings: Binding[] }[],
  ) {
    // One visibility check per distinct identity, however many of its channels are listening.
    const groups = new Map<string, { claims: Claims; members: { sub: Subscriber; bindings: Binding[] }[] }>();
    for (const entry of interested) {
      const claims = entry.sub.claims();
      const key = identityKey(claims);
      const g = groups.get(key) ?? { claims, members: [] };
      g.members.push(entry);
      groups.set(key, g);
    }
    const newRecord = change.record ?? {};
    // Only a row too large to notify (about 8 KB) can be over hosted's record limit.
    const oversize = change.truncated ? (await logBytes(info, newRecord)) > MAX_RECORD_BYTES : false;
    for (const { claims, members } of groups.values()) {
      const columns = columnsFor(info, claims);
      // Hosted answers an INSERT or UPDATE of a table without a primary key, or one whose key the role
      // may not select, with an error ("Error 400: Bad Request, no primary key", "Error 401:
      // Unauthorized") and no record, whatever the role; the twin sends nothing.
      const keyShown = info.primaryKey.length > 0 && info.primaryKey.every((k) => columns.some((c) => c.name === k));
      if (!keyShown) continue;
      // RLS is asked only where it is on (hosted runs its check statement only then), and the service
      // role bypasses it: the notified row is shown without a query, unless it was too large to notify.
      const trusted = (claims.role === "service_role" || !info.rls) && !change.truncated;
      // Filters are tried on the notified row first so that uninterested identities cost no query.
      const hopeful: typeof members = [];
      for (const m of members) {
        if (change.truncated || (await matching(m.bindings, newRecord, info)).length) hopeful.push(m);
      }
      if (!hopeful.length) continue;
      const row = trusted ? newRecord : await readAs(claims, info, columns, newRecord);
      if (!row) continue;
      const record = change.truncated ? row : pick(
        newRecord,
        columns.map((c) => c.name),
      );
      const extra: Record<string, unknown> = { record };
      if (change.type === "UPDATE") {
        // The old values the log carries (the replica identity), as far as the role may select them.
        const identity = pick(change.old_record ?? {}, change.truncated ? info.primaryKey : info.identity);
        extra.old_record = pick(
          identity,
          columns.map((c) => c.name).filter((n) => n in identity),
        );
      }
      if (oversize) {
        // Hosted's apply_rls past max_record_bytes: only values of at most 64 bytes, and an error.
        for (const k of ["record", "old_record"]) {
          if (extra[k]) extra[k] = smallValues(extra[k] as Record<string, unknown>);
        }
        extra.errors = ["Error 413: Payload Too Large"];
      }
      for (const { sub, bindings } of hopeful) {
        const matched = await matching(bindings, record, info);
        if (matched.length) deliverBySelection(sub, matched, info, change, columns, extra);
      }
    }
  }

  /** A filter's `match` and `imatch`, asked of Postgres itself: its regular expressions are not JavaScript's. */
  const regex: RegexTest = async (value, pattern, insensitive) => {
    try {
      const { rows } = await db.query<{ m: boolean }>(
        `select $1::text ${insensitive ? "~*" : "~"} $2::text as m`,
        [value, pattern],
      );
      return rows[0]?.m === true;
    } catch {
      return false;
    }
  };

  /** The bindings whose every filter holds for `record`. */
  async function matching(bindings: Binding[], record: Record<string, unknown>, info: TableInfo): Promise<Binding[]> {
    const out: Binding[] = [];
    for (const b of bindings) {
      let all = true;
      for (const f of b.filters) {
        const type = info.columns.find((c) => c.name === f.column)?.type;
        if (!(await filterMatches(f, record, type, regex))) {
          all = false;
          break;
        }
      }
      if (all) out.push(b);
    }
    return out;
  }

  /**
   * About the size of the change as the log would carry it (wal2json's record, whose text hosted
   * measures): the row's JSON, every column, plus a generous allowance per column for its name, type
   * and quoting, so that the estimate errs on the large side. 0 when the row is gone.
   */
  async function logBytes(info: TableInfo, record: Record<string, unknown>): Promise<number> {
    const keys = info.primaryKey.map((k) => record[k]);
    if (!keys.length || keys.some((v) => v === undefined || v === null)) return 0;
    const where = info.primaryKey.map((k, i) => `${quoteIdent(k)} = $${i + 1}`).join(" and ");
    const { rows } = await db.query<{ n: number }>(
      `select octet_length(row_to_json(t)::text)::int as n from ${quoteIdent(info.schema)}.${
        quoteIdent(info.table)
      } t where ${where}`,
      keys.map(String),
    );
    return (rows[0]?.n ?? 0) + info.columns.length * LOG_BYTES_PER_COLUMN;
  }

  /** Re-reads the row by primary key as the subscriber; null when RLS hides it (or it is gone). */
  async function readAs(
    claims: Claims,
    info: TableInfo,
    columns: Column[],
    record: Record<string, unknown>,
  ): Promise<Record<string, unknown> | null> {
    const keys = info.primaryKey.map((k) => record[k]);
    if (keys.some((v) => v === undefined || v === null)) return null;
    const cols = columns.map((c) => quoteIdent(c.name)).join(", ");
    const where = info.primaryKey.map((k, i) => `${quoteIdent(k)} = $${i + 1}`).join(" and ");
    const sql = `select row_to_json(t)::text as row from (select ${cols} from ${quoteIdent(info.schema)}.${
      quoteIdent(
        info.table,
      )
    } where ${where}) t`;
    try {
      const text = await asRole(
        db,
        claims,
        async (tx) => (await tx.query<{ row: string }>(sql, keys.map(String))).rows[0]?.row,
      );
      return text ? JSON.parse(text) : null;
    } catch (e) {
      // A role without rights on the table is simply not shown the change.
      if ((e as { code?: string })?.code === "42501") return null;
      throw e;
    }
  }

  return {
    push(payload) {
      let change: Change;
      try {
        change = JSON.parse(payload);
      } catch {
        log("realtime: unreadable change notification", { payload: payload.slice(0, 200) });
        return;
      }
      const now = Date.now();
      if (change.commit_timestamp !== lastStarted || now - lastArrival > SAME_COMMIT_MS) {
        lastStarted = change.commit_timestamp;
        lastCommitted = new Date(now).toISOString();
      }
      lastArrival = now;
      change.commit_timestamp = lastCommitted;
      queue = queue
        .then(() => handle(change))
        .catch((e) => log("realtime: change delivery failed", { error: String(e) }));
    },
    drain: () => queue,
  };
}

function frame(change: Change, columns: Column[], ids: number[], extra: Record<string, unknown>) {
  return {
    ids,
    data: {
      schema: change.schema,
      table: change.table,
      commit_timestamp: change.commit_timestamp,
      type: change.type,
      errors: null,
      columns,
      ...extra,
    },
  };
}

/**
 * Sends one frame per distinct `select` among the matched bindings (with their ids), as hosted fans a
 * change out per selection: the columns, record and old_record narrowed to the selected columns and the
 * primary key.
 */
function deliverBySelection(
  sub: Subscriber,
  matched: Binding[],
  info: TableInfo,
  change: Change,
  columns: Column[],
  extra: Record<string, unknown>,
) {
  const bySelection = new Map<string, { select: string[] | null; ids: number[] }>();
  for (const b of matched) {
    const key = b.select ? JSON.stringify([...new Set(b.select)].sort()) : "";
    const entry = bySelection.get(key) ?? { select: b.select, ids: [] };
    entry.ids.push(b.id);
    bySelection.set(key, entry);
  }
  for (const { select, ids } of bySelection.values()) {
    if (!select) {
      sub.deliver(frame(change, columns, ids, extra));
      continue;
    }
    const keep = (n: string) => select.includes(n) || info.primaryKey.includes(n);
    const narrowed: Record<string, unknown> = { ...extra };
    for (const k of ["record", "old_record"]) {
      const v = extra[k];
      if (v && typeof v === "object") narrowed[k] = Object.fromEntries(Object.entries(v).filter(([n]) => keep(n)));
    }
    sub.deliver(frame(change, columns.filter((c) => keep(c.name)), ids, narrowed));
  }
}

function columnsFor(info: TableInfo, claims: Claims): Column[] {
  return info.selectable[claims.role] ?? [];
}

/**
 * The values whose JSON text is at most 64 bytes, as hosted keeps them in an oversized change (a null
 * has no text there, so it is left out too).
 */
function smallValues(record: Record<string, unknown>): Record<string, unknown> {
  const enc = new TextEncoder();
  return Object.fromEntries(
    Object.entries(record).filter(([, v]) =>
      v !== null && v !== undefined && enc.encode(JSON.stringify(v)).length <= 64
    ),
  );
}

function pick(record: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) if (n in record) out[n] = record[n];
  return out;
}

function expired(claims: Claims): boolean {
  return typeof claims.exp === "number" && claims.exp * 1000 <= Date.now();
}

/** Claims that can change what RLS shows; the token's own timestamps cannot. */
function identityKey(claims: Claims): string {
  const { exp: _exp, iat: _iat, ...rest } = claims;
  return JSON.stringify(rest);
}
