// The recipe as an XMP packet, for the formats that carry XMP (JPEG's APP1, WebP's "XMP " chunk): each
// recipe field as a property of its own namespace (promptcanvas:prompt, promptcanvas:seed, ... and
// promptcanvas:v, the version), the prompt again as dc:description so photo tools show it, and the
// human-readable text as promptcanvas:parameters. The reader finds the namespace by its URI, so a tool that
// rewrote the packet with another prefix, or with properties as attributes, is still read.
import { type ImageRecipe, parametersText, RECIPE_VERSION, recipeFromObject } from "./recipe.ts";

export const RECIPE_NAMESPACE = "urn:promptcanvas:recipe:1.0#";

const FIELDS = [
  "prompt",
  "negativePrompt",
  "style",
  "quality",
  "aspectRatio",
  "width",
  "height",
  "seed",
  "provider",
  "model",
] as const;
const NUMBERS: ReadonlySet<string> = new Set(["v", "width", "height", "seed"]);

/**
 * Text as XML element content. Characters XML 1.0 cannot hold at all (C0 controls other than tab, line
 * feed and carriage return; U+FFFE, U+FFFF) are left out; a carriage return is written as a reference,
 * which a parser does not fold into a line feed.
 */
function escapeXml(text: string): string {
  return Array.from(text, (ch) => (xmlAllows(ch.charCodeAt(0)) ? ch : ""))
    .join("")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/\r/g, "&#13;");
}

function xmlAllows(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code !== 0xfffe && code !== 0xffff);
}

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (_, ref: string) => {
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    if (ref[0] !== "#") return named[ref.toLowerCase()];
    const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : "";
  });
}

export function recipeXmp(r: ImageRecipe): string {
  const values: [string, string][] = [["v", String(RECIPE_VERSION)]];
  for (const f of FIELDS) if (r[f] !== null) values.push([f, String(r[f])]);
  values.push(["parameters", parametersText(r)]);
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '  <rdf:Description rdf:about=""',
    '    xmlns:dc="http://purl.org/dc/elements/1.1/"',
    `    xmlns:promptcanvas="${RECIPE_NAMESPACE}">`,
    `   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">${
      escapeXml(r.prompt)
    }</rdf:li></rdf:Alt></dc:description>`,
    ...values.map(([k, v]) => `   <promptcanvas:${k}>${escapeXml(v)}</promptcanvas:${k}>`),
    "  </rdf:Description>",
    " </rdf:RDF>",
    "</x:xmpmeta>",
    '<?xpacket end="w"?>',
  ].join("\n");
}

/** The recipe in an XMP packet, or null when it has none (or one this version cannot read). */
export function recipeFromXmp(xmp: string): ImageRecipe | null {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const uri = escape(RECIPE_NAMESPACE);
  const bound = new RegExp(`xmlns:([A-Za-z_][\\w.-]*)\\s*=\\s*["']${uri}["']`).exec(xmp);
  if (!bound) return null;
  const p = escape(bound[1]);
  const found: Record<string, string> = {};
  for (const m of xmp.matchAll(new RegExp(`<${p}:(\\w+)>([^<]*)</${p}:\\1>`, "g"))) found[m[1]] ??= m[2];
  for (const m of xmp.matchAll(new RegExp(`\\s${p}:(\\w+)\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "g"))) {
    found[m[1]] ??= m[2] ?? m[3];
  }
  const o: Record<string, unknown> = { seed: null };
  for (const [k, raw] of Object.entries(found)) {
    const text = unescapeXml(raw);
    o[k] = NUMBERS.has(k) ? (/^\d+$/.test(text) ? Number(text) : NaN) : text;
  }
  // A tool may write an empty negative prompt as an empty element (<promptcanvas:negativePrompt/>).
  o.negativePrompt ??= "";
  return recipeFromObject(o);
}
