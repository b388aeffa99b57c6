// generate-image: turns a request into a stored image, a history row and a quota decision, whatever
// provider draws it. Exactly once per request id: a replay returns the stored row and charges nothing;
// the quota is reserved before the provider call, charged in the same transaction that stores the row
// (record_generation), and released on any failure. Nothing expensive happens before the caller is
// known: the body is validated cheaply (the reference image by its header alone), the user is verified,
// a quota slot is held, and only then is the reference image decoded (where the platform says: off the
// local backend's event loop, within a time budget). A request whose own input fails after that gives
// its slot back but counts against its account (failure-limit.ts). Everything it touches arrives as
// Deps (deps.ts builds them from the environment), so tests pass fakes. The prompt passes the prompt
// check before anything is held or drawn (docs/decisions/140-the-prompt-check.md): a refused prompt is
// nsfw_content and costs nothing. A new generation of an owner who opted in to the public gallery
// (user_preferences.public_gallery_opt_in; changing that later affects new ones only) is stored private
// and published after the answer through publish-generation, whose image check it must pass like any
// other publish (docs/decisions/141-the-image-check-before-publishing.md).
import { type AppError, appError, fail, invalidInput, type Result } from "../_shared/errors.ts";
import { seedFromRequestId } from "../_shared/generation-options.ts";
import { DIMENSIONS } from "../_shared/vocabulary/generation.ts";
import type { GenerationRow } from "../_shared/vocabulary/rows.ts";
import {
  decodeReference,
  type GenerationRequest,
  parseGenerationRequest,
  type ReferenceDecoder,
} from "../_shared/generation-request.ts";
import { createFailureLimiter, type FailureLimiter } from "../_shared/failure-limit.ts";
import type { EngineAttempt, GenerationStore } from "../_shared/generation-store.ts";
import type { GenerateImageAnswer, GenerateImageDeleted, QuotaState } from "../_shared/vocabulary/generate-image.ts";
import {
  bearerToken,
  corsHeaders,
  errorBody,
  errorResponse,
  handleOptions,
  jsonResponse,
  readJsonBody,
  statusFor,
} from "../_shared/http.ts";
import { sniffImage } from "../_shared/image/sniff.ts";
import { writeRecipe } from "../_shared/recipe-metadata/recipe-file.ts";
import type { ProviderRegistry } from "../_shared/providers/select.ts";
import type { ProviderInput, ReferenceImage } from "../_shared/providers/types.ts";
import { type RenderOptions, renderPriorityOf } from "../_shared/providers/builtin.ts";
import { createPromptCheck, type PromptCheck } from "../_shared/moderation/prompt-check.ts";
import { checkParent, parseVariation, type Variation } from "./variation.ts";

export interface HandlerConfig {
  /** Lifetime of the image URL in the answer. */
  signedUrlTtlSec: number;
  /** Largest request body (a 4 MB reference image is about 5.6 MB as a data URL). */
  maxBodyBytes: number;
}

export interface Deps {
  store: GenerationStore;
  providers: ProviderRegistry;
  fetch: typeof fetch;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Receives codes and ids only: never tokens, prompts, keys or images. */
  log: (event: string, fields: Record<string, unknown>) => void;
  config: HandlerConfig;
  /**
   * Keeps work the answer does not wait for running after it is sent (EdgeRuntime.waitUntil on
   * Supabase); without it the handler waits for that work before answering.
   */
  background?: (work: Promise<void>) => void;
  /**
   * Decodes the reference image; in this isolate by default (deps.ts gives the platform's, which waits
   * for a process at the person's render priority).
   */
  decode?: (file: Uint8Array, options?: RenderOptions) => ReturnType<ReferenceDecoder>;
  /** The prompt check; the library's alone by default (deps.ts adds the operators' terms). */
  checkPrompt?: PromptCheck;
  /**
   * Publishes a new generation of an owner who opted in, through publish-generation's checks, as the
   * owner (`jwt`); runs after the answer where the platform keeps background work. Without it nothing
   * is published.
   */
  publish?: (jwt: string, generationId: string) => Promise<void>;
}

/** The prompt check where no Deps.checkPrompt is given: the library and the app's words. */
const libraryCheck = createPromptCheck();

export const DEFAULT_CONFIG: HandlerConfig = { signedUrlTtlSec: 3600, maxBodyBytes: 6_000_000 };

type Outcome = { ok: true; answer: GenerateImageAnswer | GenerateImageDeleted } | { ok: false; error: AppError };

/**
 * How long each step of one request took, for its Server-Timing header (monotonic clock, ms to a tenth):
 * body, auth, lookup, moderation, tz, parent, reserve, optin, decode, provider, recipe, upload, record, note, publish, sign, then
 * total. Steps that run side by side are timed each on its own; a step that did not run is left out.
 */
class Phases {
  readonly #spans = new Map<string, number>();

  /** Times `work` from now until it settles. */
  async time<T>(name: string, work: Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work;
    } finally {
      this.add(name, performance.now() - start);
    }
  }

  add(name: string, ms: number): void {
    this.#spans.set(name, (this.#spans.get(name) ?? 0) + ms);
  }

  header(totalMs: number): string {
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return [...this.#spans, ["total", totalMs] as const].map(([n, ms]) => `${n};dur=${round(ms)}`).join(", ");
  }
}

// Concurrent duplicates reaching the same isolate share one run; across isolates the database's
// idempotent reservation and the row's primary key decide.
const inFlight = new WeakMap<GenerationStore, Map<string, Promise<Outcome>>>();
// The time zone last stored per user, so it is written once, not on every generation.
const knownTimezones = new WeakMap<GenerationStore, Map<string, string>>();
// Failed generations per account (failure-limit.ts), kept beside the isolate's store as the above are.
const failureLimits = new WeakMap<GenerationStore, FailureLimiter>();

function failuresOf(store: GenerationStore): FailureLimiter {
  let limiter = failureLimits.get(store);
  if (!limiter) failureLimits.set(store, limiter = createFailureLimiter());
  return limiter;
}

/** A failure of the request's own input, which counts against its account (failure-limit.ts). */
const sendersFault = (e: AppError) => e.code === "invalid_input" || e.code === "nsfw_content";

function once(store: GenerationStore, key: string, run: () => Promise<Outcome>): Promise<Outcome> {
  let runs = inFlight.get(store);
  if (!runs) inFlight.set(store, runs = new Map());
  const existing = runs.get(key);
  if (existing) return existing;
  const started = run().finally(() => runs!.delete(key));
  runs.set(key, started);
  return started;
}

export async function handler(req: Request, d: Deps): Promise<Response> {
  const pre = handleOptions(req);
  if (pre) return pre;
  if (req.method !== "POST") return errorResponse(invalidInput("Use POST", 405));
  // Durations for Server-Timing use the monotonic clock; d.now is the wall clock the quota reads.
  const started = performance.now();
  const phases = new Phases();

  const jwt = bearerToken(req);
  if (!jwt) return errorResponse(appError("auth_required"));
  // Cheap validation comes first, as on the client (docs/spec.md §5), so the session check and the replay lookup
  // can share one round trip. It decodes nothing: the reference image is decoded for a verified caller
  // once a quota slot is held for the request.
  const body = await readJsonBody(req, d.config.maxBodyBytes);
  if (!body.ok) return errorResponse(body.error);
  const parsed = parseGenerationRequest(body.value, req.headers.get("x-timezone"));
  if (!parsed.ok) return errorResponse(parsed.error);
  const variation = parseVariation(body.value);
  if (!variation.ok) return errorResponse(variation.error);
  const request: VaryingRequest = { ...parsed.value, variation: variation.value };
  phases.add("body", performance.now() - started);

  const [user, existing] = await Promise.all([
    phases.time("auth", d.store.userFromJwt(jwt)),
    phases.time("lookup", d.store.findGeneration(request.requestId)),
  ]);
  if (!user.ok) return failed(d, user.error, null);
  const userId = user.value.id;
  // A caller that asks for an event stream hears "drawn" the moment the engine has made the image, while
  // it is still stored, recorded and signed: its queue sends the next task then, so the next render
  // starts while this one's answer is on its way (docs/decisions/123-the-answer-says-drawn-before-it-is-stored.md).
  let drawn: () => void = () => undefined;
  const isDrawn = new Promise<"drawn">((resolve) => (drawn = () => resolve("drawn")));
  const working = existing.ok && existing.value ?
    replay(d, jwt, userId, existing.value, phases) :
    once(d.store, `${userId}:${request.requestId}`, () => generate(d, jwt, userId, request, phases, drawn));
  const first = wantsEvents(req) ? await Promise.race([working, isDrawn]) : await working;
  if (first === "drawn") return streamed(d, working, phases, started, request.requestId);
  if (!first.ok) return failed(d, first.error, request.requestId);
  return jsonResponse(first.answer, 200, { "Server-Timing": phases.header(performance.now() - started) });
}

/** The caller reads an event stream (supabase-js hands such a body to the caller unread). */
function wantsEvents(req: Request): boolean {
  return (req.headers.get("accept") ?? "").split(",").some((t) => t.trim().split(";")[0] === "text/event-stream");
}

/**
 * The answer as server-sent events, once the image is drawn: `drawn`, then `timing` (the steps, as
 * Server-Timing would carry them) and `answer` (the JSON body a plain call gets), or `error` with
 * `{ error, status }` (the body and status a plain call gets) when storing it fails.
 */
function streamed(
  d: Deps,
  working: Promise<Outcome>,
  phases: Phases,
  started: number,
  requestId: string,
): Response {
  const encoder = new TextEncoder();
  const event = (name: string, data: unknown) => encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(event("drawn", {}));
      const outcome = await working;
      controller.enqueue(event("timing", phases.header(performance.now() - started)));
      if (outcome.ok) controller.enqueue(event("answer", outcome.answer));
      else {
        failed(d, outcome.error, requestId);
        controller.enqueue(event("error", { ...errorBody(outcome.error), status: statusFor(outcome.error) }));
      }
      controller.close();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { ...corsHeaders, "Content-Type": "text/event-stream", "Cache-Control": "no-store" },
  });
}

function failed(d: Deps, error: AppError, requestId: string | null): Response {
  if (error.code !== "invalid_input" && error.code !== "daily_limit" && error.code !== "auth_required") {
    d.log("generation.failed", { code: error.code, request_id: requestId, detail: error.detail });
  }
  return errorResponse(error);
}

/** A request with the image it varies, if any (variation.ts). */
type VaryingRequest = GenerationRequest & { variation: Variation | null };

async function generate(
  d: Deps,
  jwt: string,
  userId: string,
  req: VaryingRequest,
  phases: Phases,
  onDrawn: () => void,
): Promise<Outcome> {
  const { store } = d;
  const failures = failuresOf(store);
  // Refused before anything is held or decoded: an account whose requests keep failing costs only this.
  const wait = failures.retryAfter(userId, d.now());
  if (wait > 0) {
    return { ok: false, error: appError("rate_limit", { retryAfter: wait, detail: "too many failed generations" }) };
  }
  // Before anything is held, decoded or drawn: a refused prompt costs nothing (the negative prompt is not checked).
  const verdict = await phases.time("moderation", (d.checkPrompt ?? libraryCheck)(req.prompt));
  if (!verdict.allowed) return { ok: false, error: appError("nsfw_content", { detail: `prompt: ${verdict.source}` }) };
  if (req.timezone) await phases.time("tz", rememberTimezone(d, jwt, userId, req.timezone));
  // A variation's parent is the caller's own, checked before anything is held (decision 155).
  if (req.variation) {
    const parent = await phases.time("parent", checkParent(store, userId, req.variation));
    if (!parent.ok) return parent;
  }

  // The gallery opt-in is read beside the reservation (one round trip's time); a failed read keeps the
  // image private, since publishing must never happen without the person's choice.
  const [reservation, optIn] = await Promise.all([
    phases.time("reserve", store.reserve(userId, req.requestId)),
    phases.time("optin", store.publishDefault(userId)),
  ]);
  if (!reservation.ok) return { ok: false, error: await unlessGone(d, jwt, reservation.error) };
  if (!optIn.ok) d.log("gallery_opt_in.read_failed", { request_id: req.requestId, detail: optIn.error.detail });
  const isPublic = optIn.ok && optIn.value;
  // The tier the quota just read decides how soon this request's decode and render start where they
  // wait for the engine (docs/decisions/153-paid-renders-start-first.md).
  const priority = renderPriorityOf(reservation.value.tier);
  // Made before, then deleted by the person: a late retry is done, and nothing is drawn or charged.
  if (reservation.value.deleted) return deletedAnswer(req.requestId, reservation.value);
  if (!reservation.value.allowed) {
    const untilReset = (Date.parse(reservation.value.reset_at) - d.now()) / 1000;
    return { ok: false, error: appError("daily_limit", { retryAfter: Math.max(1, Math.ceil(untilReset)) }) };
  }

  sweepLeftImages(d, userId);

  // From here on every failure must give the reserved slot back.
  const giveBack = async (error: AppError): Promise<Outcome> => {
    // A concurrent duplicate may have stored this request meanwhile: then the request succeeded.
    const stored = await store.findGeneration(req.requestId);
    if (stored.ok && stored.value?.user_id === userId) return replay(d, jwt, userId, stored.value, phases);
    const released = await store.release(userId, req.requestId);
    if (!released.ok) d.log("quota.release_failed", { request_id: req.requestId, detail: released.error.detail });
    return { ok: false, error: await unlessGone(d, jwt, error) };
  };

  // The reference image is decoded only now: for a verified caller with quota left, whose slot is
  // held (a person at 0 left, or a visitor, costs the backend no decode at all). It counts as a failure
  // of its account until it succeeds, so a file that fails costs its sender, and the slot it gives back
  // buys no more than the limit's few decodes a minute.
  let decoded: Result<ReferenceImage> | null = null;
  if (req.reference) {
    const forgive = failures.note(userId, d.now());
    const decode = d.decode;
    const decoder: ReferenceDecoder | undefined = decode && ((file) => decode(file, { priority }));
    decoded = await phases.time("decode", decodeReference(req.reference, decoder));
    if (decoded.ok || !sendersFault(decoded.error)) forgive();
  }
  if (decoded && !decoded.ok) return giveBack(decoded.error);
  const reference = decoded?.value ?? null;

  const provider = d.providers.select(req.provider);
  const { width, height } = DIMENSIONS[req.aspectRatio];
  const input: ProviderInput = {
    requestId: req.requestId,
    prompt: req.prompt,
    negativePrompt: req.negativePrompt,
    style: req.style,
    quality: req.quality,
    aspectRatio: req.aspectRatio,
    width,
    height,
    seed: req.seed ?? seedFromRequestId(req.requestId),
    reference,
    priority,
  };
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), d.providers.timeoutMs);
  const providerStarted = performance.now();
  let drawn;
  try {
    drawn = await provider.generate(input, deadline.signal);
  } catch (e) {
    drawn = { ok: false as const, error: appError("server_error", { detail: `${provider.id} threw: ${String(e)}` }) };
  } finally {
    clearTimeout(timer);
  }
  const providerMs = Math.round((performance.now() - providerStarted) * 10) / 10;
  phases.add("provider", providerMs);
  if (!drawn.ok) {
    if (sendersFault(drawn.error)) failures.note(userId, d.now());
    await note(d, phases, { provider: provider.id, ok: false, errorCode: drawn.error.code, ms: providerMs });
    return giveBack(drawn.error);
  }

  const recipeStarted = performance.now();
  const image = sniffImage(drawn.value.bytes);
  if (!image) return giveBack(appError("server_error", { detail: `${provider.id}: output is not an image` }));
  onDrawn();
  const path = `${userId}/${req.requestId}.${image.extension}`;
  // Every stored image carries its recipe, its pixels untouched: PNG text chunks, JPEG and WebP XMP
  // (docs/decisions/104-every-image-file-carries-its-recipe.md, 108-stored-jpeg-and-webp-carry-the-recipe.md);
  // a file whose structure cannot be read is stored as it came.
  const recipe = {
    prompt: req.prompt,
    negativePrompt: req.negativePrompt,
    style: req.style,
    quality: req.quality,
    aspectRatio: req.aspectRatio,
    width: image.width,
    height: image.height,
    seed: drawn.value.seed,
    provider: provider.id,
    model: drawn.value.model,
    ...(req.customStyle ? { customStyle: req.customStyle.name } : {}),
    ...(req.variation ? { variation: { of: req.variation.parentId, kind: req.variation.kind } } : {}),
  };
  const bytes = writeRecipe(drawn.value.bytes, recipe) ?? drawn.value.bytes;
  phases.add("recipe", performance.now() - recipeStarted);
  const put = await phases.time("upload", store.putImage(path, bytes, image.contentType));
  if (!put.ok) return giveBack(put.error);

  // The object is stored, so its URL is signed while the row is written (signing needs only the path);
  // whatever becomes of the row, the signing settles as a Result.
  const signing = phases.time("sign", store.signedUrl(path, d.config.signedUrlTtlSec)).catch((e) =>
    fail(appError("server_error", { detail: `sign url threw: ${String(e)}` }))
  );
  // The row and its charge are one transaction: no crash can leave a stored image uncharged.
  const recorded = await phases.time(
    "record",
    store.recordGeneration({
      id: req.requestId,
      user_id: userId,
      prompt: req.prompt,
      negative_prompt: req.negativePrompt,
      style: req.style,
      quality: req.quality,
      aspect_ratio: req.aspectRatio,
      width: image.width,
      height: image.height,
      seed: drawn.value.seed,
      provider: provider.id,
      model: drawn.value.model,
      image_path: path,
      is_public: false,
      ...(req.customStyle ? { custom_style_id: req.customStyle.id, custom_style_name: req.customStyle.name } : {}),
      ...(req.variation ? { parent_id: req.variation.parentId, variation: req.variation.kind } : {}),
    }),
  );
  if (!recorded.ok) {
    const stored = await store.findGeneration(req.requestId);
    if (stored.ok && stored.value?.user_id === userId) return replay(d, jwt, userId, stored.value, phases);
    await store.removeImage(path);
    return giveBack(recorded.error);
  }
  if (!recorded.value.created && recorded.value.deleted) {
    // Deleted by the person while this retry was drawing: this copy goes, and its slot is given back.
    await store.removeImage(path);
    const released = await store.release(userId, req.requestId);
    if (!released.ok) d.log("quota.release_failed", { request_id: req.requestId, detail: released.error.detail });
    const after = await store.readLimits(jwt);
    return deletedAnswer(req.requestId, after.ok ? after.value : reservation.value);
  }
  if (!recorded.value.created) {
    // A concurrent duplicate stored the row first, and was charged with it.
    const stored = await store.findGeneration(req.requestId);
    if (!stored.ok) return stored;
    if (!stored.value || stored.value.user_id !== userId) {
      return giveBack(appError("server_error", { detail: "insert conflicted but no row is visible" }));
    }
    return replay(d, jwt, userId, stored.value, phases);
  }

  // Time to image for /status: from the engine call to the image stored with its row.
  const toImageMs = Math.round(performance.now() - providerStarted);
  await note(d, phases, { provider: provider.id, ok: true, errorCode: null, ms: toImageMs });
  if (isPublic && d.publish) await later(d, phases, "publish", d.publish(jwt, req.requestId));
  const url = await signing;
  const { allowed: _allowed, tier: _tier, ...reserved } = reservation.value;
  const quota = recorded.value.quota ?? reserved;
  // The row is stored and charged: a retry with the same request id replays it and signs again.
  if (!url.ok) return url;
  return { ok: true, answer: { generation: { ...recorded.value.row, image_url: url.value }, quota, replayed: false } };
}

function deletedAnswer(id: string, quota: QuotaState & { allowed?: boolean; tier?: string }): Outcome {
  const { remaining, daily_limit, reset_at } = quota;
  return { ok: true, answer: { deleted: { id }, quota: { remaining, daily_limit, reset_at }, replayed: true } };
}

/**
 * Notes an engine call for /status (docs/decisions: engine health), after the answer where the platform
 * keeps background work (Deps.background): nobody waits for it. A failure to note it is only logged.
 */
async function note(d: Deps, phases: Phases, attempt: EngineAttempt): Promise<void> {
  const noting = d.store.recordAttempt(attempt).then(
    (noted) => {
      if (!noted.ok) d.log("engine_attempt.record_failed", { provider: attempt.provider, detail: noted.error.detail });
    },
    (e) => d.log("engine_attempt.record_failed", { provider: attempt.provider, detail: String(e) }),
  );
  await later(d, phases, "note", noting);
}

/** A stale reservation is at least 10 minutes old, so one sweep in 10 minutes finds every new one. */
const SWEEP_EVERY_MS = 10 * 60_000;
// When each person's left images were last swept from this isolate.
const lastSweeps = new WeakMap<GenerationStore, Map<string, number>>();

/**
 * After the answer, at most once in 10 minutes a person: removes the images their calls stored without
 * writing the row (a call that ended in between) and that no retry claimed while its reservation held
 * (take_stale_reservations takes those reservations).
 */
function sweepLeftImages(d: Deps, userId: string): void {
  let sweeps = lastSweeps.get(d.store);
  if (!sweeps) lastSweeps.set(d.store, sweeps = new Map());
  const last = sweeps.get(userId);
  if (last !== undefined && d.now() - last < SWEEP_EVERY_MS) return;
  sweeps.set(userId, d.now());
  const sweep = async () => {
    const taken = await d.store.takeStaleReservations(userId);
    if (!taken.ok) throw new Error(taken.error.detail ?? taken.error.code);
    for (const path of taken.value) {
      const removed = await d.store.removeImage(path);
      if (removed.ok) d.log("left_image.removed", { path });
      else d.log("left_image.remove_failed", { path, detail: removed.error.detail });
    }
  };
  // Not this request's work: never in its Server-Timing, never waited for.
  const sweeping = sweep().catch((e) => d.log("left_image.sweep_failed", { detail: String(e) }));
  if (d.background) d.background(sweeping);
}

/** Work the answer does not wait for where the platform keeps it running (Deps.background); else awaited. */
async function later(d: Deps, phases: Phases, name: string, work: Promise<void>): Promise<void> {
  const settled = work.catch((e) => d.log(`${name}.failed`, { detail: String(e) }));
  if (d.background) d.background(settled);
  else await phases.time(name, settled);
}

/**
 * A failure of the data layer for a user deleted while the request was in flight (the foreign key of a
 * row, a refused upload, a reservation with no limits row) is not the server's fault and retrying
 * cannot help: it answers auth_required, as a request from a deleted account does. Asked only for
 * server-side failures, so the ordinary path costs nothing more.
 */
async function unlessGone(d: Deps, jwt: string, error: AppError): Promise<AppError> {
  if (error.code !== "server_error") return error;
  const still = await d.store.userFromJwt(jwt);
  if (still.ok || still.error.code !== "auth_required") return error;
  return { ...still.error, detail: `user gone; was: ${error.detail ?? error.code}` };
}

async function replay(
  d: Deps,
  jwt: string,
  userId: string,
  row: GenerationRow,
  phases: Phases,
): Promise<Outcome> {
  // The id is the caller's own: another account's row stays invisible and unaffected.
  if (row.user_id !== userId) {
    return { ok: false, error: invalidInput("This request id is already in use", 409) };
  }
  // A row stored without its charge (by a function that stopped between two steps before the row and
  // the charge became one transaction) is charged now; otherwise the commit is a no-op that reports
  // the quota. The reservation is the original request's, so a replay never charges a second time.
  const [url, settled] = await Promise.all([
    phases.time("sign", d.store.signedUrl(row.image_path, d.config.signedUrlTtlSec)),
    phases.time("commit", d.store.commit(userId, row.id)),
  ]);
  if (!url.ok) return url;
  if (!settled.ok) d.log("quota.commit_failed", { request_id: row.id, detail: settled.error.detail });
  const quota = settled.ok && settled.value ?
    { ok: true as const, value: settled.value } :
    await d.store.readLimits(jwt);
  if (!quota.ok) return quota;
  return { ok: true, answer: { generation: { ...row, image_url: url.value }, quota: quota.value, replayed: true } };
}

async function rememberTimezone(d: Deps, jwt: string, userId: string, timezone: string): Promise<void> {
  let known = knownTimezones.get(d.store);
  if (!known) knownTimezones.set(d.store, known = new Map());
  if (known.get(userId) === timezone) return;
  const r: Result<void> = await d.store.setTimezone(jwt, timezone);
  // The time zone only moves the next reset; a failure to store it must not cost the image.
  if (r.ok) known.set(userId, timezone);
  else d.log("timezone.store_failed", { detail: r.error.detail });
}
