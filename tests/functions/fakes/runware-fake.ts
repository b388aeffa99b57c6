// A fake Runware REST API built from shared/reference/providers.md §2: POST /v1 with an array of tasks,
// Bearer or `authentication`-task auth, imageInference validation with `errors[].parameter`, sync results
// (URL or base64), async delivery with getResponse polling, and the error modes the adapter classifies.
import { type FakeServer, FileHost, json, solidPng, startFakeServer, toBase64 } from "./fake-server.ts";

export type RunwareMode =
  | "ok"
  | "insufficient_credits" // 402 insufficientCredits
  | "overloaded_429"
  | "overloaded_503"
  | "overloaded_504"
  | "server_error" // 500
  | "timeout_provider" // errors[] timeoutProvider
  | "nsfw"; // result flagged NSFWContent

export interface RunwareFake extends FakeServer {
  apiKey: string;
  files: FileHost;
  mode: { value: RunwareMode; pollsToFinish: number };
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const MODELS = new Set(["runware:100@1", "runware:101@1", "runware:400@1"]);

interface RwError {
  code: string;
  message: string;
  parameter?: string;
  taskType?: string;
  taskUUID?: string;
}

const err = (e: RwError, status: number) =>
  json({ errors: [{ ...e, documentation: "https://runware.ai/docs/en/platform/errors" }] }, status);

/** Runware's error for the task `t`: its code and message, and the task type or parameter it is about. */
const taskError = (
  t: Record<string, unknown>,
  code: string,
  message: string,
  about: { taskType?: string; parameter?: string },
): RwError => ({ code, message, ...about, taskUUID: t.taskUUID as string });

function validateInference(t: Record<string, unknown>): RwError | null {
  const base = { taskType: "imageInference", taskUUID: t.taskUUID as string | undefined };
  if (typeof t.taskUUID !== "string" || !UUID_V4.test(t.taskUUID)) {
    return {
      ...base,
      code: "invalidTaskUUID",
      message: "Invalid value for taskUUID parameter. It must be a UUIDv4.",
      parameter: "taskUUID",
    };
  }
  if (typeof t.positivePrompt !== "string" || t.positivePrompt.length < 2 || t.positivePrompt.length > 3000) {
    return {
      ...base,
      code: "invalidPositivePrompt",
      message: "Invalid value for positivePrompt parameter.",
      parameter: "positivePrompt",
    };
  }
  if (typeof t.model !== "string" || !MODELS.has(t.model)) {
    return { ...base, code: "invalidModel", message: "Invalid value for model parameter.", parameter: "model" };
  }
  for (const side of ["width", "height"] as const) {
    const v = t[side];
    if (!Number.isInteger(v) || (v as number) < 256 || (v as number) > 2048 || (v as number) % 64 !== 0) {
      return {
        ...base,
        code: `invalid${side[0].toUpperCase()}${side.slice(1)}`,
        message: `Invalid value for ${side} parameter. It must be a multiple of 64 between 256 and 2048.`,
        parameter: side,
      };
    }
  }
  if (
    t.numberResults !== undefined &&
    (!Number.isInteger(t.numberResults) || (t.numberResults as number) < 1 || (t.numberResults as number) > 20)
  ) {
    return {
      ...base,
      code: "invalidNumberResults",
      message: "Invalid value for numberResults parameter.",
      parameter: "numberResults",
    };
  }
  if (t.outputType !== undefined && !["URL", "base64Data", "dataURI"].includes(t.outputType as string)) {
    return {
      ...base,
      code: "invalidOutputType",
      message: "Invalid value for outputType parameter.",
      parameter: "outputType",
    };
  }
  return null;
}

export function startRunwareFake(initial: RunwareMode = "ok"): RunwareFake {
  const apiKey = "rw_fake_key";
  const files = new FileHost();
  const mode = { value: initial, pollsToFinish: 2 };
  const asyncTasks = new Map<string, { task: Record<string, unknown>; polls: number }>();
  let base = "";

  function results(t: Record<string, unknown>) {
    const n = Number(t.numberResults ?? 1);
    const seed = Number.isInteger(t.seed) ? (t.seed as number) : 12345;
    const checking = t.checkNSFW === true ||
      (t.safety as { checkContent?: boolean } | undefined)?.checkContent === true;
    return Array.from({ length: n }, (_, i) => {
      const imageUUID = crypto.randomUUID();
      const png = solidPng(t.width as number, t.height as number, [200, 120, 40]);
      const out: Record<string, unknown> = {
        taskType: "imageInference",
        taskUUID: t.taskUUID,
        imageUUID,
        seed: seed + i,
      };
      if (t.outputType === "base64Data") out.imageBase64Data = toBase64(png);
      else if (t.outputType === "dataURI") out.imageDataURI = `data:image/png;base64,${toBase64(png)}`;
      else out.imageURL = base + files.add(`${imageUUID}.png`, png);
      if (checking) out.NSFWContent = mode.value === "nsfw";
      return out;
    });
  }

  const server = startFakeServer((req, url, body) => {
    const file = files.serve(url.pathname);
    if (file) return file;
    if (req.method !== "POST" || url.pathname !== "/v1") return err({ code: "notFound", message: "Not found" }, 404);
    if (!Array.isArray(body)) {
      return err({ code: "invalidBody", message: "The request body must be a JSON array of tasks." }, 400);
    }
    let tasks = body as Record<string, unknown>[];
    const header = req.headers.get("authorization");
    let authorised = header === `Bearer ${apiKey}`;
    if (tasks[0]?.taskType === "authentication") {
      authorised = tasks[0].apiKey === apiKey;
      tasks = tasks.slice(1);
    }
    if (!authorised) {
      return err(
        {
          code: "invalidApiKey",
          message: "Invalid API key. Get one at https://my.runware.ai/keys",
          parameter: "apiKey",
          taskType: "authentication",
        },
        401,
      );
    }
    switch (mode.value) {
      case "insufficient_credits":
        return err(
          {
            code: "insufficientCredits",
            message: "Insufficient credits to perform this task. Please top up your account.",
          },
          402,
        );
      case "overloaded_429":
        return err({ code: "tooManyRequests", message: "Too many requests, please slow down." }, 429);
      case "overloaded_503":
        return err({ code: "serviceUnavailable", message: "The service is temporarily overloaded." }, 503);
      case "overloaded_504":
        return new Response("Gateway Timeout", { status: 504 });
      case "server_error":
        return err({ code: "internalServerError", message: "Internal server error." }, 500);
    }
    const data: unknown[] = [];
    const errors: RwError[] = [];
    for (const t of tasks) {
      if (t.taskType === "getResponse") {
        const pending = asyncTasks.get(t.taskUUID as string);
        if (!pending) {
          errors.push(taskError(t, "taskNotFound", "Task not found.", { taskType: "getResponse" }));
          continue;
        }
        pending.polls++;
        if (pending.polls < mode.pollsToFinish) {
          data.push({ taskType: "imageInference", taskUUID: t.taskUUID, status: "processing" });
        } else {
          for (const r of results(pending.task)) data.push({ ...r, status: "success" });
        }
        continue;
      }
      if (t.taskType !== "imageInference") {
        errors.push(taskError(t, "invalidTaskType", "Invalid taskType.", { parameter: "taskType" }));
        continue;
      }
      const invalid = validateInference(t);
      if (invalid) {
        errors.push(invalid);
        continue;
      }
      if (mode.value === "timeout_provider") {
        errors.push(
          taskError(t, "timeoutProvider", "The provider timed out while processing the task.", {
            taskType: "imageInference",
          }),
        );
        continue;
      }
      if (t.deliveryMethod === "async") {
        asyncTasks.set(t.taskUUID as string, { task: t, polls: 0 });
        data.push({ taskType: "imageInference", taskUUID: t.taskUUID, status: "processing" });
        continue;
      }
      data.push(...results(t));
    }
    if (errors.length && !data.length) {
      const status = errors.some((e) => e.code === "timeoutProvider") ? 500 : 400;
      return json({ errors }, status);
    }
    return json(errors.length ? { data, errors } : { data });
  });
  base = server.url;
  return { ...server, apiKey, files, mode };
}
