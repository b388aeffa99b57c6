// What the grammars know of the backend under test (its accounts, rows and stored objects, by index so a
// request rebuilt from its seed means the same thing on a new backend) and the request they produce.

/** Who sends a request: a visitor, one of the run's accounts, or a caller with a token that must fail. */
export type Who =
  | "anon"
  | "user0"
  | "user1"
  | "user2"
  /** An account signed up for this request alone (for requests that end or change their account). */
  | "fresh"
  | "expired"
  | "wrong-secret"
  | "alg-none"
  | "garbage"
  | "unknown-role"
  | "no-apikey";

export const SIGNED_IN: readonly Who[] = ["user0", "user1", "user2"];
export const BAD_TOKENS: readonly Who[] = [
  "expired",
  "wrong-secret",
  "alg-none",
  "garbage",
  "unknown-role",
  "no-apikey",
];

export type Surface = "rest" | "rpc" | "storage" | "auth" | "realtime" | "functions";

export interface HttpCase {
  kind: "http";
  surface: Surface;
  /** What the grammar chose, in a few words, for the tally. */
  label: string;
  who: Who;
  method: string;
  /** Path and query, already encoded as sent. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

export interface SocketCase {
  kind: "ws";
  surface: "realtime";
  label: string;
  who: Who;
  /** Frames sent in order once the socket opens; the first is the join the answer is timed by. */
  frames: string[];
  /** How long the socket stays open after the reply (so changes reach its filters). */
  lingerMs: number;
}

export type FuzzCase = HttpCase | SocketCase;

export interface Account {
  id: string;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
}

/** A generation row of the run, with its stored image's path in the generations bucket. */
export interface StoredGeneration {
  id: string;
  userId: string;
  path: string;
  isPublic: boolean;
}

export interface World {
  url: string;
  anonKey: string;
  jwtSecret: string;
  /** user0 and user1 are on the premium tier (their quota never ends a run), user2 on the free tier. */
  accounts: Account[];
  generations: StoredGeneration[];
  /** Objects stored under user0's folder whose bytes are hostile images (truncated, bombs, polyglots). */
  hostileObjects: string[];
}

/** The account a signed-in `who` names, else user0 (a bad token still claims to be someone). */
export function accountOf(world: World, who: Who): Account {
  const i = SIGNED_IN.indexOf(who);
  return world.accounts[i < 0 ? 0 : i];
}
