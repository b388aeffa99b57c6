// The parity registry: one row per feature of Supabase's HTTP surface, with what `supabase/local` does
// about it (served as hosted, served stricter than hosted, not served) and the backend-tier tests that
// prove it, named by file (under tests/backend) and by the test's own title (the string given to `it`).
// Data only, no tests: vitest collects `*.test.ts`, not this file. scripts/parity-table.mjs turns it into
// the table between the parity markers of docs/parity.md; tests/unit/scripts/parity-table.test.ts fails
// when that table differs from this registry or a title here is no longer a test's.
// A row without a proving test says so in the table ("no test"); a claim is only as good as its test.

export type ParityStatus = "served" | "stricter" | "not-served";

export interface ParityRow {
  service: "gateway" | "realtime" | "auth" | "rest" | "storage" | "functions";
  feature: string;
  status: ParityStatus;
  note: string;
  /** The tests that prove the row: `file` under tests/backend, `title` as written in `it(...)`. */
  tests: { file: string; title: string }[];
}

const realtime = "realtime.test.ts";
const broadcast = "realtime-broadcast.test.ts";
const auth = "auth.test.ts";
const authAdmin = "auth-admin.test.ts";
const emailChange = "auth-email-change.test.ts";
const authMfa = "auth-mfa.test.ts";
const authDefaults = "auth-defaults.test.ts";
const rest = "rest.test.ts";
const embedding = "rest-embedding.test.ts";
const m2m = "rest-embedding-m2m.test.ts";
const rpcEmbedding = "rest-rpc-embedding.test.ts";
const overloads = "rest-rpc-overloads.test.ts";
const computed = "rest-computed.test.ts";
const profiles = "rest-profiles.test.ts";
const embeddingErrors = "rest-embedding-errors.test.ts";
const spreadsViews = "rest-spreads-views.test.ts";
const storage = "storage.test.ts";
const surface = "storage-surface.test.ts";
const shapes = "storage-hosted-shapes.test.ts";
const storageErrors = "storage-errors.test.ts";

export const PARITY: ParityRow[] = [
  // The API gateway in front of every service
  {
    service: "gateway",
    feature: "API key: required, and only the project's own",
    status: "served",
    note: "no key: 401 'No API key found in request'; any other string, a JWT signed with the project's secret included: 401 'Invalid API key'; open routes as hosted's",
    tests: [
      {
        file: "gateway.test.ts",
        title: "refuses requests with no API key as hosted's gateway does, and only where it does",
      },
      {
        file: "gateway.test.ts",
        title:
          "refuses an API key that is not the project's anon or service_role key, even a JWT signed with its secret",
      },
    ],
  },
  // Realtime
  {
    service: "realtime",
    feature: "`postgres_changes` INSERT and UPDATE, filtered",
    status: "served",
    note: "filter on the new row, then the row is re-read as the subscriber under RLS; `old_record` is the replica identity",
    tests: [
      {
        file: realtime,
        title: "delivers the owner's INSERT to the owner's filtered channel and never to a stranger or anon",
      },
      { file: realtime, title: "delivers a published row to subscribers who may read it, anonymous ones included" },
      { file: realtime, title: "delivers an UPDATE with the new row and the old primary key" },
    ],
  },
  {
    service: "realtime",
    feature: "`postgres_changes` DELETE",
    status: "served",
    note: "every unfiltered subscriber gets the primary key alone; a filtered binding never matches",
    tests: [
      {
        file: realtime,
        title: "sends a DELETE to every unfiltered subscriber as the primary key alone, and none to a filtered one",
      },
      { file: realtime, title: "a delete on one device reaches the app's library on another, live" },
    ],
  },
  {
    service: "realtime",
    feature: "`postgres_changes` filter operators and `select`",
    status: "served",
    note: "comma-joined filters, `not.`, like/ilike/is/match/imatch/isdistinct; joins checked for the role as `subscription_check_filters` does",
    tests: [
      {
        file: "realtime-filters.test.ts",
        title: "applies every comma-joined filter, not., like, is and match, and narrows a change to its select",
      },
      {
        file: "realtime-filters.test.ts",
        title: "refuses a filter on a column the role may not select, or with a value not of its type",
      },
    ],
  },
  {
    service: "realtime",
    feature: "join, heartbeat, `access_token`, token expiry",
    status: "served",
    note: "bounded channels per socket and bindings per channel",
    tests: [
      { file: realtime, title: "answers heartbeats on the phoenix topic" },
      { file: realtime, title: "echoes each binding exactly, with a numeric id, and confirms the subscription" },
      { file: realtime, title: "bounds the channels of one socket and the bindings of one channel" },
      { file: realtime, title: "refuses joins with a forged or expired token" },
      { file: realtime, title: "closes a channel when the token it holds expires" },
      { file: realtime, title: "accepts a refreshed access token and closes the channel on an invalid one" },
      { file: realtime, title: "refuses a connection without the project's API key" },
    ],
  },
  {
    service: "realtime",
    feature: "broadcast (`self`, `ack`, binary frames)",
    status: "served",
    note: "payload measured as JSON bytes, 256,000 max; 100 messages/s in a fixed one-second window",
    tests: [
      { file: broadcast, title: "a broadcast reaches the other members of the channel, and the sender only with self" },
      { file: broadcast, title: "ack: a send resolves once the server has it; a payload over 256 KB is refused" },
    ],
  },
  {
    service: "realtime",
    feature: "presence (`track`, `untrack`, `presenceState`)",
    status: "served",
    note: "one node; limits as hosted's Free plan",
    tests: [
      {
        file: broadcast,
        title: "presence: a tracked member is in the others' state; untrack and closing the socket leave",
      },
    ],
  },
  {
    service: "realtime",
    feature: "private channels (`realtime.messages` RLS)",
    status: "served",
    note: "SELECT to join, INSERT to send; a failing policy counts as a refusal",
    tests: [{ file: broadcast, title: "private channels: joining takes a SELECT policy, sending an INSERT policy" }],
  },
  {
    service: "realtime",
    feature: "REST broadcast (`/api/broadcast`, `httpSend`)",
    status: "served",
    note: "same statuses; the 422 body approximates Ecto's `errors` shape",
    tests: [
      {
        file: broadcast,
        title: "REST broadcast: apikey and Authorization as hosted; a private message needs the INSERT policy",
      },
    ],
  },
  {
    service: "realtime",
    feature: "broadcast from the database (`realtime.send`, `realtime.broadcast_changes`)",
    status: "served",
    note: "every committed `realtime.messages` row with an event and a payload, after commit (NOTIFY), `meta.id` the row's id; rows kept 72 hours by day, as hosted's partitions",
    tests: [
      {
        file: "realtime-db-broadcast.test.ts",
        title:
          "broadcast_changes from a trigger reaches the private channel's authorised member, not an unauthorised one",
      },
      {
        file: "realtime-db-broadcast.test.ts",
        title: "realtime.send with private false reaches a public channel's subscribers only",
      },
      {
        file: "realtime-db-broadcast.test.ts",
        title: "a rolled-back send delivers nothing; a send refused by the caller's INSERT policy is only a warning",
      },
    ],
  },

  // Auth
  {
    service: "auth",
    feature: "`signUp` validation order and codes",
    status: "served",
    note: "GoTrue's order: password, strength in bytes, e-mail and phone together, provider, address",
    tests: [
      { file: auth, title: "checks the password before the address, in GoTrue's sign-up order" },
      { file: auth, title: "refuses a short password with AuthWeakPasswordError and its reasons" },
      { file: auth, title: "refuses an address that is not one with validation_failed" },
      { file: auth, title: "refuses a second account for the same address, whatever its case" },
    ],
  },
  {
    service: "auth",
    feature: "`minimum_password_length` from config.toml",
    status: "served",
    note: "counted in bytes; default 6, lower values raised to 6",
    tests: [
      { file: auth, title: "takes the project's minimum from config.toml, counted in bytes of UTF-8 as GoTrue counts" },
      { file: auth, title: "takes GoTrue's default minimum of 6" },
    ],
  },
  {
    service: "auth",
    feature: "`signInWithPassword`, access tokens, `/user`",
    status: "served",
    note: "GoTrue-shaped HS256 tokens; no per-account lockout",
    tests: [
      { file: auth, title: "signs in with the right password and refuses a wrong one or an unknown address alike" },
      { file: auth, title: "issues GoTrue-shaped HS256 access tokens signed with the backend's secret" },
      { file: auth, title: "answers /user without a bearer token with 401 and with a forged token with 403" },
    ],
  },
  {
    service: "auth",
    feature: "refresh-token rotation and reuse interval",
    status: "served",
    note: "a reused token within the interval answers the current one; after it the session ends",
    tests: [
      { file: auth, title: "rotates the refresh token on each refresh and emits TOKEN_REFRESHED" },
      {
        file: auth,
        title: "refuses a superseded refresh token with refresh_token_already_used and revokes the session",
      },
      { file: auth, title: "refuses an unknown refresh token with refresh_token_not_found" },
      { file: auth, title: "answers a just-rotated token with the session's current token, not a new branch" },
      { file: auth, title: "ends the whole session when a rotated token comes back after the interval" },
    ],
  },
  {
    service: "auth",
    feature: "`signOut` (global, local)",
    status: "served",
    note: "204 with no body",
    tests: [
      {
        file: auth,
        title: "ends every session: refresh tokens stop working and other clients are signed out by /user",
      },
      { file: auth, title: "ends only the current session with scope local" },
      { file: auth, title: "answers 204 with no body" },
    ],
  },
  {
    service: "auth",
    feature: "`updateUser` (password, e-mail, metadata)",
    status: "stricter",
    note: "new address checked before new password; `app_metadata` refused; an e-mail change needs both addresses to confirm even with autoconfirm on",
    tests: [
      { file: auth, title: "checks a new address before a new password, in GoTrue's user-update order" },
      { file: auth, title: "changes the password, emits USER_UPDATED and signs out the other sessions" },
      { file: emailChange, title: "mails both addresses and changes the address only once both have confirmed" },
      { file: emailChange, title: "refuses an address another account holds with email_exists, mailing nothing" },
      { file: auth, title: "removes user_metadata keys given as null and refuses app_metadata changes" },
    ],
  },
  {
    service: "auth",
    feature: "`resetPasswordForEmail`, e-mail confirmation",
    status: "served",
    note: "mail lands in the dev mailbox; links are single use",
    tests: [
      { file: auth, title: "mails a single-use link that signs the person in for choosing a new password" },
      { file: auth, title: "answers {} for an unknown address without mailing anything" },
      { file: auth, title: "exchanges a link token for a session with verifyOtp, once" },
      { file: auth, title: "mails a confirmation link, refuses sign-in until it is followed, then signs in" },
    ],
  },
  {
    service: "auth",
    feature: "rate limits (`[auth.rate_limit]`)",
    status: "served",
    note: "read from the same section of config.toml",
    tests: [
      {
        file: auth,
        title: "lets one IP make 30 sign-up and sign-in requests, then answers 429 over_request_rate_limit",
      },
      {
        file: auth,
        title: "sends at most 2 e-mails an hour over the whole project, then answers 429 over_email_send_rate_limit",
      },
      { file: auth, title: "limits link verifications to 30 per IP" },
    ],
  },
  {
    service: "auth",
    feature: "admin API (`listUsers`, `getUserById`, `createUser`, `updateUserById`, `deleteUser`)",
    status: "stricter",
    note: "page below 1 is 400; admin-set passwords meet the policy; phone, `password_hash`, other roles and soft delete refused",
    tests: [
      { file: authAdmin, title: "creates users with confirmation, metadata and a password that signs in" },
      { file: authAdmin, title: "gets and updates a user by id, merging metadata and changing the password" },
      { file: authAdmin, title: "lists users newest first in pages, with GoTrue's Link and X-Total-Count headers" },
      { file: authAdmin, title: "refuses every admin call without the service role with 403 not_admin" },
      { file: "delete-account.test.ts", title: "lets only the service role delete a user through the admin API" },
    ],
  },
  {
    service: "auth",
    feature: "`generateLink` (signup, invite, magiclink, recovery), `inviteUserByEmail`",
    status: "served",
    note: "the invitation lands in the dev mailbox; `invited_at`, `confirmation_sent_at` recorded",
    tests: [
      { file: authAdmin, title: "generates magic link, recovery, sign-up and invite links without mailing them" },
      { file: authAdmin, title: "invites by e-mail into the dev mailbox; the invitation signs the person in once" },
      { file: authDefaults, title: "records invited_at and confirmation_sent_at when an invitation goes out" },
    ],
  },
  {
    service: "auth",
    feature: "`generateLink` types `email_change_current`, `email_change_new`",
    status: "served",
    note: "the change applies once both sides are followed",
    tests: [
      {
        file: emailChange,
        title:
          "generates email_change_current and email_change_new links that change the address once both are followed",
      },
      {
        file: emailChange,
        title: "refuses email change links for an unknown user, a taken address or a malformed one",
      },
    ],
  },
  {
    service: "auth",
    feature: "e-mail change links (`verifyOtp` type `email_change`, link redirect)",
    status: "served",
    note: "secure change: a link and code to each address; `new_email`, `email_change_sent_at` shown",
    tests: [
      { file: emailChange, title: "mails both addresses and changes the address only once both have confirmed" },
      {
        file: emailChange,
        title: "takes the codes only with their own address, once, and answers the first with GoTrue's message",
      },
      { file: emailChange, title: "refuses a second change within a minute with over_email_send_rate_limit" },
      {
        file: emailChange,
        title: "holds a resend of a pending change back for a minute and tells nothing for an address without one",
      },
    ],
  },
  {
    service: "auth",
    feature: "`signInWithOtp({email})`, `verifyOtp`",
    status: "stricter",
    note: "banned accounts are mailed nothing; code and link are one token",
    tests: [
      { file: authAdmin, title: "signs up a new address with signInWithOtp and signs in with the mailed code, once" },
      { file: authAdmin, title: "mails an existing account a magic link that signs in through the browser redirect" },
      { file: authAdmin, title: "refuses an unknown address when shouldCreateUser is false, creating nothing" },
      { file: authAdmin, title: "refuses a code older than an hour" },
      {
        file: authAdmin,
        title: "counts OTP mails against the hourly e-mail budget and code checks against token_verifications",
      },
    ],
  },
  {
    service: "auth",
    feature: "phone sign-up and SMS OTP",
    status: "not-served",
    note: "400 `phone_provider_disabled`, as hosted with the phone provider off; a phone code is checked, then matches no account",
    tests: [
      { file: auth, title: "checks the password before the address, in GoTrue's sign-up order" },
      { file: authDefaults, title: "checks a phone code's number, then finds no account for it" },
    ],
  },
  {
    service: "auth",
    feature: "external OAuth providers",
    status: "not-served",
    note: "`/settings` lists none",
    tests: [
      { file: auth, title: "publishes GoTrue's settings with e-mail sign-up auto-confirmed and no external providers" },
    ],
  },
  {
    service: "auth",
    feature: "PKCE (`code_challenge`)",
    status: "not-served",
    note: "refused on `/otp`",
    tests: [],
  },
  {
    service: "auth",
    feature: "`weak_password` on a sign-in with an outdated password",
    status: "not-served",
    note: "hosted adds it to the response; local does not",
    tests: [],
  },
  {
    service: "auth",
    feature: "MFA with TOTP (`mfa.enroll`, `challenge`, `verify`, `unenroll`, `admin.mfa`)",
    status: "served",
    note: "aal2 sessions, GoTrue's aal2-only actions; phone and WebAuthn factors off, as hosted's defaults",
    tests: [
      {
        file: authMfa,
        title: "enrols a TOTP factor with its secret, otpauth URI and QR code, unverified until a code is given",
      },
      {
        file: authMfa,
        title: "raises the session to aal2 with a right code, ends the other aal1 sessions and keeps aal2 on refresh",
      },
      {
        file: authMfa,
        title: "refuses at aal1 what GoTrue keeps for aal2: a password change, a new factor, removing a verified one",
      },
      { file: authMfa, title: "lets the admin API list and delete a user's factors, and nobody else" },
      { file: authMfa, title: "answers code checks beyond 15 a minute from one IP with 429 over_request_rate_limit" },
    ],
  },
  {
    service: "auth",
    feature: "`reauthenticate`",
    status: "stricter",
    note: "the code is mailed, never asked for (`secure_password_change` is not served)",
    tests: [{ file: authDefaults, title: "mails a reauthentication code at most once a minute" }],
  },
  {
    service: "auth",
    feature: "anonymous sign-ins (`signInAnonymously`)",
    status: "not-served",
    note: "422 `anonymous_provider_disabled`, as hosted with them off (its default and this project's)",
    tests: [
      {
        file: authDefaults,
        title: "refuses an anonymous sign-in with 422 anonymous_provider_disabled, before counting it",
      },
    ],
  },
  {
    service: "auth",
    feature: "SAML SSO, manual identity linking, Web3 and ID-token sign-in",
    status: "not-served",
    note: "GoTrue's answers for each with the feature off (hosted's default)",
    tests: [
      { file: authDefaults, title: "refuses SAML single sign-on with 404 saml_provider_disabled" },
      {
        file: authDefaults,
        title: "refuses linking and unlinking identities after authentication with 404 manual_linking_disabled",
      },
      { file: authDefaults, title: "refuses Web3 and ID-token sign-in as GoTrue does with the providers off" },
    ],
  },

  // REST
  {
    service: "rest",
    feature: "reads: select, filters, range, `single`, `maybeSingle`, `textSearch`",
    status: "stricter",
    note: "PostgREST's shapes and codes; regex and text-search values bounded (400 PGRST100, decision 125)",
    tests: [
      { file: "hostile.test.ts", title: "pathological queries answer the same status on both databases" },
      { file: rest, title: "returns only the listed columns, with aliases and casts" },
      { file: rest, title: "pages with range and limit" },
      { file: rest, title: "counts exactly, with and without rows, and HEAD carries no body" },
      { file: rest, title: "answers .single() with a bare object, or 406 PGRST116 when not exactly one row" },
      { file: rest, title: "filters with ilike, in, is, not, or and nested and" },
      { file: rest, title: "searches the generated tsvector with textSearch" },
    ],
  },
  {
    service: "rest",
    feature: "writes and row-level security",
    status: "stricter",
    note: "each request runs as the caller's role; at most 1,000 rows an insert (413 PT413, decision 137)",
    tests: [
      { file: "hostile.test.ts", title: "pathological queries answer the same status on both databases" },
      { file: rest, title: "shows a stranger and anon only the published row" },
      { file: rest, title: "refuses anon inserts with 401 and any signed-in insert, own or forged, with 403" },
      { file: rest, title: "lets a stranger neither update nor delete the owner's rows" },
      { file: rest, title: "updates: 204 without select, 200 with the changed rows with select" },
      { file: rest, title: "check violation 23514 is 400, unique 23505 is 409, invalid uuid 22P02 is 400" },
    ],
  },
  {
    service: "rest",
    feature: "rpc",
    status: "served",
    note: "GET for stable functions; overloads chosen by argument names; PGRST202 / PGRST203 worded as PostgREST's, hints at v14's stricter fuzzy threshold",
    tests: [
      { file: rest, title: "refuses anon (401) and server-only functions (403)" },
      { file: rest, title: "calls stable functions with GET and refuses writes in a GET with 405" },
      { file: rest, title: "answers an unknown function or argument with 404 PGRST202" },
      { file: overloads, title: "chooses the overload whose parameters the argument names match, by POST and GET" },
      { file: overloads, title: "passes the whole body to a single unnamed json or text parameter" },
      { file: overloads, title: "answers PGRST203 for overloads the names cannot tell apart, in PostgREST's order" },
      { file: overloads, title: "answers PGRST202 with PostgREST's details and a hint from the closest parameters" },
      {
        file: overloads,
        title: "answers PGRST202 for an unknown name, hinting only a close one, and for uncallable functions",
      },
    ],
  },
  {
    service: "rest",
    feature: "resource embedding through foreign keys",
    status: "stricter",
    note: "at most 8 levels and 32 embedded resources; related order at the top level only",
    tests: [
      { file: embedding, title: "embeds to-many through a hinted foreign key, to-one with aliases, and one-to-one" },
      { file: embedding, title: "applies row-level security to embedded tables: each is read as the caller's role" },
      { file: embedding, title: "filters, orders and limits embedded resources; !inner filters the parents" },
      { file: embedding, title: "spreads a to-one resource's columns into the row, and orders by a to-one resource" },
      { file: embedding, title: "answers PGRST201 for an ambiguous relationship, worded as PostgREST's" },
      {
        file: embedding,
        title: "answers PGRST200 for no relationship and PGRST108 for a filter on a resource not embedded",
      },
      { file: rest, title: "embedding a table with no foreign key between them is 400 PGRST200" },
      {
        file: embeddingErrors,
        title: "refuses two embeds of one name at one level with 42712, and serves them aliased",
      },
      { file: embeddingErrors, title: "names an embedded table's unknown column by PostgREST's alias for it" },
    ],
  },
  {
    service: "rest",
    feature: "many-to-many embedding through junction tables",
    status: "served",
    note: "junctions found as PostgREST's addM2MRels finds them; `!inner`, hints naming the junction, filters, order and limits",
    tests: [
      {
        file: m2m,
        title: "embeds both sides of a junction table as arrays, reading only the far side's columns",
      },
      { file: m2m, title: "detects a junction whose primary key has more columns than its two foreign keys" },
      { file: m2m, title: "filters, orders and limits the far side; !inner keeps only parents with a match" },
      { file: m2m, title: "reads the junction as the caller: a row its policy hides links nothing" },
      { file: m2m, title: "answers PGRST201 for two junctions, worded as PostgREST's, and a junction hint chooses" },
    ],
  },
  {
    service: "rest",
    feature: "embedding on rpc results",
    status: "served",
    note: "a function returning a table's rows, as a set or one row, embeds like the table",
    tests: [
      { file: rpcEmbedding, title: "embeds the to-one side of a set-returning function's rows, by POST and by GET" },
      { file: rpcEmbedding, title: "embeds the to-many side with filters, order, limits and !inner" },
      { file: rpcEmbedding, title: "embeds on a function returning one row of a table's type, answered as an object" },
      { file: rpcEmbedding, title: "embeds on the rows a volatile function wrote, in the same call" },
    ],
  },
  {
    service: "rest",
    feature: "computed fields",
    status: "stricter",
    note: "functions of `public` (or `extensions`) taking the row and returning one value; set-returning ones are no fields",
    tests: [
      { file: computed, title: "selects, filters and orders by a computed field, which * leaves out" },
      { file: computed, title: "reads computed fields on an rpc's rows and on the rows a write returns" },
    ],
  },
  {
    service: "rest",
    feature: "computed relationships",
    status: "served",
    note: "to-one with `rows 1`; one named after a table replaces the detected relationships",
    tests: [
      {
        file: computed,
        title: "embeds a computed relationship: to-one with rows 1, to-many otherwise, self too",
      },
      {
        file: computed,
        title: "a computed relationship named after a table replaces the ambiguous foreign keys",
      },
    ],
  },
  {
    service: "rest",
    feature: "relationships through views",
    status: "served",
    note: "a view showing a key's columns as they are (through views too) takes part in its relationship; junction views; PGRST200 / PGRST201 alike",
    tests: [
      {
        file: spreadsViews,
        title: "embeds through views both ways, through a view of a view, and by a view's column",
      },
      { file: spreadsViews, title: "finds many-to-many through a junction view, which has its table's primary key" },
      {
        file: spreadsViews,
        title: "answers PGRST200 for a view showing no key column and PGRST201 for two, as PostgREST",
      },
    ],
  },
  {
    service: "rest",
    feature: "`count` as a field of an embedded resource (`comments(count)`), or of the whole resource",
    status: "served",
    note: "where no column or computed field is named count: PostgreSQL's `alias.count` is count(alias), so the resource answers one row with its count; not an aggregate `db-aggregates-enabled` governs",
    tests: [
      {
        file: spreadsViews,
        title: "counts an embedded resource's rows with a plain count field, as PostgreSQL reads alias.count",
      },
    ],
  },
  {
    service: "rest",
    feature: "spread of a to-many resource",
    status: "served",
    note: "one array per column (PostgREST v13 and later), ordered alike by the spread's order; nested spreads and embeds; `!inner`",
    tests: [
      { file: spreadsViews, title: "spreads a one-to-many resource as one array per column, [] when none" },
      { file: spreadsViews, title: "orders every array alike by the spread's order, even by a column not selected" },
      {
        file: spreadsViews,
        title: "nests: a to-one spread flattens into the arrays, an embed becomes an array of values",
      },
      { file: spreadsViews, title: "filters the spread rows, and !inner keeps only parents with some" },
      {
        file: m2m,
        title: "spreads a many-to-many resource into arrays, and refuses a hint that names no junction",
      },
    ],
  },
  {
    service: "rest",
    feature: "`.schema(name)`: Accept-Profile / Content-Profile",
    status: "served",
    note: "the schemas of config.toml's `[api] schemas`; PGRST106 (406) for others; Content-Profile on answers; the request's search_path",
    tests: [
      { file: profiles, title: "reads the table of the schema a profile names, and public without one" },
      { file: profiles, title: "writes in the schema Content-Profile names" },
      { file: profiles, title: "calls the schema's functions, embeds and computes inside it, on its search_path" },
      { file: profiles, title: "words its errors with the schema, and refuses a schema not exposed with PGRST106" },
      { file: profiles, title: "describes the chosen schema at the root" },
      { file: rest, title: "a schema other than public is 406 PGRST106" },
    ],
  },
  {
    service: "rest",
    feature: "`upsert` statuses (`resolution=merge-duplicates`, `ignore-duplicates`)",
    status: "served",
    note: "201 when a row was inserted, 200 when every row merged",
    tests: [
      { file: embedding, title: "answers 201 when an upsert inserts and 200 when it only merges duplicates" },
      { file: rest, title: "upserts on a conflict column and ignores duplicates when asked" },
    ],
  },
  {
    service: "rest",
    feature: "`rpc(fn, args, {count})`",
    status: "served",
    note: "Content-Range with the counted total; 206 for a partial page",
    tests: [{ file: embedding, title: "counts rpc rows in Content-Range and answers 206 for a partial page" }],
  },
  {
    service: "rest",
    feature: "`Prefer: count=planned / estimated`",
    status: "served",
    note: "rpc calls answer the exact count for both",
    tests: [
      {
        file: embedding,
        title:
          "answers count=planned with the planner's estimate (206 when partial) and estimated exactly under max rows",
      },
    ],
  },
  {
    service: "rest",
    feature: "`Prefer: handling=strict, max-affected=n`",
    status: "stricter",
    note: "applies to inserts too",
    tests: [
      { file: embedding, title: "refuses an rpc call that affects more rows than max-affected, and rolls it back" },
    ],
  },
  {
    service: "rest",
    feature: "`Prefer: tx=rollback`",
    status: "served",
    note: "ignored, as hosted (no transaction overrides)",
    tests: [],
  },
  {
    service: "rest",
    feature: "`.csv()` (`Accept: text/csv`)",
    status: "stricter",
    note: "406 PGRST107 for functions returning a scalar",
    tests: [{ file: embedding, title: "answers text/csv as PostgREST builds it" }],
  },

  // Storage
  {
    service: "storage",
    feature: "`upload`, `download`, `update`, `remove`, `list`",
    status: "served",
    note: "as the caller under `storage.objects` RLS; bucket types and size limits apply",
    tests: [
      { file: storage, title: "uploads a Blob as multipart and downloads the same bytes with its type" },
      { file: storage, title: "uploads a Buffer as a raw body and serves it with length, ETag and cache headers" },
      {
        file: storage,
        title: "refuses a duplicate upload without upsert and replaces the object with upsert or update",
      },
      { file: storage, title: "keeps a stranger from reading, removing or overwriting the owner's object" },
      { file: storage, title: "lets the owner remove their objects and answers with the deleted rows" },
      { file: storage, title: "lists one folder level of the caller's objects" },
      { file: storage, title: "enforces the bucket's allowed types and size limit" },
    ],
  },
  {
    service: "storage",
    feature: "`createSignedUrl(s)`, `getPublicUrl`",
    status: "served",
    note: "expiry in whole seconds, capped at a year",
    tests: [
      {
        file: storage,
        title: "serves a signed URL to a request with no credentials, until the token is tampered with",
      },
      { file: storage, title: "refuses an expired signed URL" },
      { file: storage, title: "signs several paths at once, with an error for the ones the caller cannot read" },
      { file: storage, title: "refuses the public URL of an object in a private bucket" },
      { file: storage, title: "serves the public URL of an object in a public bucket" },
      { file: storage, title: "takes expiresIn as a whole number of seconds and caps it at a year" },
    ],
  },
  {
    service: "storage",
    feature: "`move`, `copy` (also across buckets)",
    status: "stricter",
    note: "the destination row is written as the caller; the destination bucket's limits apply",
    tests: [
      { file: surface, title: "moves an object: the bytes follow it and the old name is gone" },
      { file: surface, title: "copies an object, also into another bucket, and keeps the source" },
    ],
  },
  {
    service: "storage",
    feature: "`info`, `exists`",
    status: "stricter",
    note: "a public bucket's object is still read as the caller; `metadata` is the upload's user metadata",
    tests: [
      { file: surface, title: "tells an object's info and whether it exists" },
      { file: shapes, title: "keeps an upload's user metadata, answers it from info(), and copies it" },
      {
        file: surface,
        title: "sets hosted's operation names: a visitor gets a published image's info, never a signed link",
      },
    ],
  },
  {
    service: "storage",
    feature: "`listV2`",
    status: "served",
    note: "folders carry `key`; name or time order, with or without the delimiter; hosted's cursors",
    tests: [
      { file: surface, title: "lists with listV2: folders folded, keys in order, a cursor for the next page" },
      { file: shapes, title: "lists folders with their key, and pages a delimited listing in time order" },
    ],
  },
  {
    service: "storage",
    feature: "`createSignedUploadUrl`, `uploadToSignedUrl`",
    status: "served",
    note: "the token is the permission; the owner is the signer; 2 h",
    tests: [{ file: surface, title: "signs an upload URL that uploads once with its token, as its signer" }],
  },
  {
    service: "storage",
    feature: "signed tokens (`scope: download` / `upload`)",
    status: "stricter",
    note: "a token carrying `role` is never a signed URL",
    tests: [{ file: surface, title: "keeps download and upload tokens apart" }],
  },
  {
    service: "storage",
    feature: "`createSignedUrl(path, n, {transform})`",
    status: "stricter",
    note: "`transform.format` other than `origin` refused; `X-Transformations` as hosted",
    tests: [
      { file: surface, title: "serves a transformed signed URL as the transformed image" },
      { file: shapes, title: "names the applied transformation in X-Transformations" },
    ],
  },
  {
    service: "storage",
    feature: "`getBucket`, `updateBucket` (only the settings given)",
    status: "served",
    note: "times as UTC with milliseconds, as storage-api's JSON writes them",
    tests: [
      { file: shapes, title: "updates only the bucket settings given, and refuses an update that gives none" },
      { file: shapes, title: "writes times as storage-api's JSON does: UTC with milliseconds" },
    ],
  },
  {
    service: "storage",
    feature: "`emptyBucket`",
    status: "stricter",
    note: "objects are deleted at once and as the caller, so RLS decides which go (hosted's job deletes all)",
    tests: [
      { file: shapes, title: "empties a bucket for the service role; a user who cannot see it gets NoSuchBucket" },
    ],
  },
  {
    service: "storage",
    feature: "error bodies (`statusCode`, `code`, `error`, `message`) and HTTP status",
    status: "served",
    note: "storage-api's three shapes: its own errors (HTTP 400, 500 for a fault), Fastify's schema and body refusals, its route 404; jose's words for a token",
    tests: [
      {
        file: storageErrors,
        title: "answers StorageApiError with storage-api's status and statusCode through supabase-js",
      },
      {
        file: storageErrors,
        title: "sends each of its own errors whole: status, statusCode, code, error label, message",
      },
      {
        file: storageErrors,
        title: "answers a delete of one object the caller may not delete with AccessDenied",
      },
      {
        file: storageErrors,
        title: "refuses requests its schema or its body parser refuses, with Fastify's status and name",
      },
      {
        file: storageErrors,
        title: "answers a route it does not have with its 404, the route named as storage-api sees it",
      },
      { file: storageErrors, title: "refuses a token that does not verify with jose's words, as AccessDenied" },
      {
        file: storageErrors,
        title: "refuses a signed token naming a role the database lacks before any SQL, as AccessDenied",
      },
      { file: storage, title: "answers a forged JWT as storage-api does: AccessDenied in jose's words" },
    ],
  },
  {
    service: "storage",
    feature: "resumable uploads (TUS, `/upload/resumable`)",
    status: "not-served",
    note: "404 `NotSupported`",
    tests: [{ file: surface, title: "answers 404 NotSupported for hosted routes it does not serve" }],
  },
  {
    service: "storage",
    feature: "`/object/info/public`, `/render/image/public` (`getPublicUrl(path, {transform})`)",
    status: "stricter",
    note: "public buckets only, read with the server's rights; any other bucket is `NoSuchBucket`, as hosted; renders as `render/image/authenticated` does",
    tests: [
      {
        file: storageErrors,
        title: "serves a public bucket's object info and renders at the public routes, to anyone",
      },
      {
        file: storageErrors,
        title: "refuses the public routes for a private bucket (the app's) as hosted: NoSuchBucket",
      },
    ],
  },
  {
    service: "storage",
    feature: "S3 protocol (`/s3`), `/cdn`, `/iceberg`, `/vector`",
    status: "not-served",
    note: "404 `NotSupported`",
    tests: [],
  },

  // Functions
  {
    service: "functions",
    feature: "`functions.invoke`",
    status: "served",
    note: "supabase-js's three error classes; a forged JWT is 401 before the function runs",
    tests: [
      { file: "functions.test.ts", title: "invokes the health function as a signed-in user" },
      {
        file: "functions.test.ts",
        title: "reports a function's 400 answer as FunctionsHttpError with the body readable",
      },
      { file: "functions.test.ts", title: "reports a function that fails to load as FunctionsRelayError" },
      { file: "functions.test.ts", title: "answers an unknown function with 404" },
      { file: "functions.test.ts", title: "answers a forged JWT with 401 before the function runs" },
    ],
  },
];
