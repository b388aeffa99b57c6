// The storage grammar: object keys with dots, slashes, empty segments, percent-encodings and unicode,
// under the caller's folder, another's, or none; every object, info, render, sign, list, move/copy,
// upload (raw bytes or multipart, with odd boundaries and parts) and bucket route; render transforms of
// any size; and the run's stored hostile images read, rendered and signed.
import { fuzzImage } from "./images.ts";
import { pctEncode as pct } from "../../tests/support/hostile.ts";
import { jsonBody, jsonValue, queryValue, type Rng, text, word } from "./grammar.ts";
import { accountOf, type HttpCase, type Who, type World } from "./world.ts";

const BUCKETS = ["generations", "generations", "generations", "avatars", "", "..", "GENERATIONS", "generations%2F.."];

function segment(r: Rng): string {
  return r.weighted([
    [5, () => word(r)],
    [2, () => r.pick([".", "..", "...", "%2e%2e", "%2E", ".%2e", "%2F", "%5c", "%00", "%", "%zz", "~", " ", "+"])],
    [1, () => ""],
    [2, () => pct(text(r, 40))],
    [1, () => "a".repeat(r.size(2000))],
    [1, () => `${word(r)}.${r.pick(["png", "PNG", "jpg", "json", "png.exe", "", "."])}`],
  ]);
}

/** An object key: a real one of the run, or segments under the caller's folder, another's, or none. */
function objectKey(r: Rng, w: World, who: Who): string {
  const mine = accountOf(w, who).id;
  return r.weighted([
    [3, () => r.pick(w.generations).path],
    [2, () => r.pick(w.hostileObjects)],
    [
      5,
      () => {
        const folder = r.pick([mine, mine, r.pick(w.accounts).id, "", "public", "..", mine.toUpperCase()]);
        const n = r.chance(0.05) ? r.size(300) : r.int(1, 4);
        return [folder, ...r.repeat(n, () => segment(r))].join(r.chance(0.9) ? "/" : r.pick(["//", "/./", "\\"]));
      },
    ],
  ]);
}

function transformQuery(r: Rng): string {
  const parts: string[] = [];
  const dim = () => r.pick(["1", "64", "256", "2500", "0", "-1", "99999", "1.5", "x", "1e9"]);
  if (r.chance(0.8)) parts.push(`width=${dim()}`);
  if (r.chance(0.5)) parts.push(`height=${dim()}`);
  if (r.chance(0.4)) parts.push(`resize=${r.pick(["cover", "contain", "fill", "x"])}`);
  if (r.chance(0.3)) parts.push(`quality=${r.pick(["20", "100", "0", "101", "-5"])}`);
  if (r.chance(0.3)) parts.push(`format=${r.pick(["origin", "webp", "avif", "png", "x"])}`);
  return parts.join("&");
}

/** A multipart body of one upload: the file part, sometimes cacheControl/metadata, odd boundaries. */
function multipart(r: Rng, bytes: Uint8Array, mime: string): { body: Uint8Array<ArrayBuffer>; type: string } {
  const boundary = r.pick(["----fuzz", "x", "a".repeat(r.size(200)), "", 'b"q', "--"]);
  const parts: Buffer[] = [];
  const part = (headers: string, content: Uint8Array | string) =>
    parts.push(Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from("\r\n"));
  if (r.chance(0.3)) part('Content-Disposition: form-data; name="cacheControl"', r.pick(["3600", "x", "-1"]));
  if (r.chance(0.2)) part('Content-Disposition: form-data; name="metadata"', jsonBody(r, jsonValue(r, 4)));
  const filename = r.chance(0.8) ? `; filename="${text(r, 30).replace(/"/g, "")}"` : "";
  part(
    `Content-Disposition: form-data; name="${r.pick(["", "file", "x"])}"${filename}\r\nContent-Type: ${mime}`,
    bytes,
  );
  if (r.chance(0.85)) parts.push(Buffer.from(`--${boundary}--\r\n`));
  const body = new Uint8Array(Buffer.concat(parts));
  const type = r.chance(0.9) ? `multipart/form-data; boundary=${boundary}` : "multipart/form-data";
  return { body: r.chance(0.1) ? body.slice(0, r.int(0, body.length)) : body, type };
}

type Made = Omit<HttpCase, "kind" | "surface" | "who">;

function readRoute(r: Rng, bucket: string, key: string): Made {
  const route = r.pick([
    "object/authenticated",
    "object/public",
    "object",
    "object/info/authenticated",
    "object/info/public",
    "object/info",
    "render/image/authenticated",
    "render/image/public",
    "object/sign",
    "render/image/sign",
  ]);
  const q = route.startsWith("render")
    ? transformQuery(r)
    : route.endsWith("sign")
      ? `token=${queryValue(r, text(r, 60))}`
      : "";
  const headers: Record<string, string> = {};
  if (r.chance(0.2)) headers.range = r.pick(["bytes=0-10", "bytes=-5", "bytes=10-2", "bytes=0-99999999999", "x"]);
  if (r.chance(0.1)) headers["if-none-match"] = r.pick(['"x"', "*", text(r, 30)]);
  return {
    label: `${route.split("/").slice(0, 2).join(" ")} read`,
    method: r.chance(0.9) ? "GET" : "HEAD",
    path: `/storage/v1/${route}/${bucket}/${key}${q ? `?${q}` : ""}`,
    headers,
  };
}

function commandRoute(r: Rng, w: World, who: Who, bucket: string, key: string): Made {
  const keys = () => r.repeat(r.chance(0.1) ? r.size(2000) : r.int(1, 5), () => objectKey(r, w, who));
  const json = { "content-type": "application/json" };
  return r.weighted<Made>([
    [
      3,
      () => ({
        label: "sign one",
        method: "POST",
        path: `/storage/v1/object/sign/${bucket}/${key}`,
        headers: json,
        body: jsonBody(r, {
          expiresIn: r.pick([60, 0, -1, 1e12, "60", null]),
          ...(r.chance(0.4) ? { transform: { width: r.int(-5, 9000), height: r.int(-5, 9000), resize: word(r) } } : {}),
        }),
      }),
    ],
    [
      2,
      () => ({
        label: "sign many",
        method: "POST",
        path: `/storage/v1/object/sign/${bucket}`,
        headers: json,
        body: jsonBody(r, { expiresIn: r.pick([60, -1, "x"]), paths: r.chance(0.9) ? keys() : jsonValue(r, 3) }),
      }),
    ],
    [
      3,
      () => ({
        label: "list",
        method: "POST",
        path: `/storage/v1/object/${r.pick(["list", "list-v2"])}/${bucket}`,
        headers: json,
        body: jsonBody(r, {
          prefix: r.chance(0.7) ? key.split("/").slice(0, r.int(0, 2)).join("/") : text(r, 200),
          limit: r.pick([10, 0, -1, 100_000, "x"]),
          offset: r.pick([0, 5, -3, 1e12]),
          ...(r.chance(0.4) ? { search: text(r, 100) } : {}),
          ...(r.chance(0.3)
            ? { sortBy: { column: r.pick(["name", "created_at", word(r)]), order: r.pick(["asc", "desc", word(r)]) } }
            : {}),
          ...(r.chance(0.2) ? { cursor: text(r, 80), with_delimiter: r.pick([true, false, "x"]) } : {}),
        }),
      }),
    ],
    [
      1,
      () => ({
        label: "remove many",
        method: "DELETE",
        path: `/storage/v1/object/${bucket}`,
        headers: json,
        body: jsonBody(r, { prefixes: r.chance(0.9) ? keys() : jsonValue(r, 3) }),
      }),
    ],
    [
      1,
      () => ({
        label: "move/copy",
        method: "POST",
        path: `/storage/v1/object/${r.pick(["move", "copy"])}`,
        headers: { ...json, ...(r.chance(0.3) ? { "x-upsert": "true" } : {}) },
        body: jsonBody(r, {
          bucketId: bucket,
          sourceKey: objectKey(r, w, who),
          destinationKey: objectKey(r, w, who),
          ...(r.chance(0.3) ? { destinationBucket: r.pick(BUCKETS) } : {}),
        }),
      }),
    ],
    [
      1,
      () => ({
        label: "upload sign",
        method: r.pick(["POST", "PUT"]),
        path: `/storage/v1/object/upload/sign/${bucket}/${key}${r.chance(0.5) ? `?token=${queryValue(r, text(r, 80))}` : ""}`,
        headers: json,
        body: "{}",
      }),
    ],
  ]);
}

function writeRoute(r: Rng, bucket: string, key: string): Made {
  const image = fuzzImage(r);
  const headers: Record<string, string> = {};
  let body: Uint8Array<ArrayBuffer> | string = image.bytes;
  if (r.chance(0.3)) {
    const m = multipart(r, image.bytes, image.mime);
    body = m.body;
    headers["content-type"] = m.type;
  } else headers["content-type"] = r.chance(0.9) ? image.mime : r.pick(["application/json", "", "text/html"]);
  if (r.chance(0.3)) headers["x-upsert"] = r.pick(["true", "false", "TRUE", "1"]);
  if (r.chance(0.1)) headers["cache-control"] = r.pick(["max-age=3600", "x", "no-store"]);
  if (r.chance(0.1))
    headers["x-metadata"] = Buffer.from(jsonBody(r, jsonValue(r, 3)))
      .toString(r.pick(["base64", "utf8"]) as BufferEncoding)
      .replace(/[^\x20-\x7e]/g, "");
  const method = r.pick(["POST", "POST", "PUT", "DELETE"]);
  return {
    label: `${method} object (${method === "DELETE" ? "remove" : image.name.split(" ")[0]})`,
    method,
    path: `/storage/v1/object/${bucket}/${key}`,
    headers,
    body: method === "DELETE" ? undefined : body,
  };
}

function bucketRoute(r: Rng): Made {
  const name = r.pick(BUCKETS.filter(Boolean).concat([pct(text(r, 40))]));
  return r.pick<Made>([
    { label: "list buckets", method: "GET", path: "/storage/v1/bucket" },
    { label: "get bucket", method: "GET", path: `/storage/v1/bucket/${name}` },
    {
      label: "create bucket",
      method: "POST",
      path: "/storage/v1/bucket",
      headers: { "content-type": "application/json" },
      body: jsonBody(r, {
        id: text(r, 40),
        name: text(r, 40),
        public: r.pick([true, false, "x"]),
        file_size_limit: r.pick([1, -1, "10MB", 1e20]),
      }),
    },
    {
      label: "update bucket",
      method: "PUT",
      path: `/storage/v1/bucket/${name}`,
      headers: { "content-type": "application/json" },
      body: jsonBody(r, { public: true, allowed_mime_types: r.repeat(r.size(50), () => text(r, 20)) }),
    },
    { label: "empty bucket", method: "POST", path: `/storage/v1/bucket/${name}/empty` },
    { label: "delete bucket", method: "DELETE", path: `/storage/v1/bucket/${name}` },
  ]);
}

export function storageCase(r: Rng, w: World, who: Who): HttpCase {
  const bucket = r.pick(BUCKETS);
  const key = objectKey(r, w, who);
  const made = r.weighted<Made>([
    [8, () => readRoute(r, bucket, key)],
    [5, () => commandRoute(r, w, who, bucket, key)],
    [3, () => writeRoute(r, bucket, key)],
    [1, () => bucketRoute(r)],
  ]);
  return { kind: "http", surface: "storage", who, ...made };
}
