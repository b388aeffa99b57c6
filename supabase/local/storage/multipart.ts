// A small multipart/form-data reader. It exists because supabase-js sends the file part with an empty
// field name (`name=""`), which the runtime's Request.formData() silently drops.

export interface Part {
  name: string;
  filename: string | null;
  contentType: string | null;
  body: Uint8Array;
}

const dec = new TextDecoder();

export function boundaryOf(contentType: string): string | null {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : null;
}

/** Splits a complete multipart body into parts; returns null when the body is not well formed. */
export function parseMultipart(body: Uint8Array, boundary: string): Part[] | null {
  const delimiter = new TextEncoder().encode(`--${boundary}`);
  const parts: Part[] = [];
  let pos = indexOf(body, delimiter, 0);
  if (pos < 0) return null;
  while (true) {
    pos += delimiter.length;
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return parts; // closing "--"
    pos = skipLineBreak(body, pos);
    const headerEnd = indexOf(body, new Uint8Array([0x0d, 0x0a, 0x0d, 0x0a]), pos);
    if (headerEnd < 0) return null;
    const headers = parseHeaders(dec.decode(body.subarray(pos, headerEnd)));
    const start = headerEnd + 4;
    const next = indexOf(body, delimiter, start);
    if (next < 0) return null;
    // The part's bytes end before the CRLF that precedes the next delimiter.
    const end = next >= 2 && body[next - 2] === 0x0d && body[next - 1] === 0x0a ? next - 2 : next;
    const disposition = headers.get("content-disposition") ?? "";
    const name = param(disposition, "name");
    if (name === null) return null;
    parts.push({
      name,
      filename: param(disposition, "filename"),
      contentType: headers.get("content-type") ?? null,
      body: body.subarray(start, end),
    });
    pos = next;
  }
}

function parseHeaders(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r\n/)) {
    const i = line.indexOf(":");
    if (i > 0) out.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return out;
}

function param(header: string, key: string): string | null {
  const m = new RegExp(`(?:^|;)\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, "i").exec(header) ??
    new RegExp(`(?:^|;)\\s*${key}=([^;\\s]*)`, "i").exec(header);
  return m ? m[1].replace(/\\(.)/g, "$1") : null;
}

function skipLineBreak(b: Uint8Array, pos: number): number {
  if (b[pos] === 0x0d && b[pos + 1] === 0x0a) return pos + 2;
  if (b[pos] === 0x0a) return pos + 1;
  return pos;
}

function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  const last = hay.length - needle.length;
  outer: for (let i = hay.indexOf(first, from); i !== -1 && i <= last; i = hay.indexOf(first, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
