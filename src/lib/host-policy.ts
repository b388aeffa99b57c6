// Which host the product runs on (docs/spec.md §7 and §2): any host other than the configured production
// domain shows the development banner; a public host that is not the production domain is sent
// there with the same path. Loopback names and bare IP addresses are never redirected: they are
// a developer's machine or a local-network preview, never a public mirror. Nor are the preview hosts
// of app-builder platforms (docs/spec.md §7: "not a builder-platform host"), where the app is built and
// reviewed before it is published.

import { LOOPBACK_HOSTNAMES } from "#shared/vocabulary/hosts.ts";

const LOOPBACK_NAMES = new Set<string>(LOOPBACK_HOSTNAMES);

function normalize(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, "");
}

/**
 * Preview domains of app-builder platforms (Lovable, Bolt and StackBlitz's WebContainers, Replit, v0,
 * CodeSandbox): a host equal to one of them or under it is spared from the host redirect.
 */
const BUILDER_PREVIEW_DOMAINS: readonly string[] = [
  "lovable.app",
  "lovableproject.com",
  "webcontainer.io",
  "webcontainer-api.io",
  "stackblitz.io",
  "replit.dev",
  "repl.co",
  "vusercontent.net",
  "csb.app",
];

/** Whether `hostname` is `domain` or a subdomain of it (label by label: "evil-lovable.app" is not). */
function isUnder(hostname: string, domain: string): boolean {
  const d = normalize(domain).replace(/^\./, "");
  return d !== "" && (hostname === d || hostname.endsWith(`.${d}`));
}

export function isBuilderPreviewHost(hostname: string, domains: readonly string[] = BUILDER_PREVIEW_DOMAINS): boolean {
  const h = normalize(hostname);
  return domains.some((d) => isUnder(h, d));
}

export function isLocalHost(hostname: string): boolean {
  const h = normalize(hostname);
  return LOOPBACK_NAMES.has(h) || h.endsWith(".localhost") || /^\d{1,3}(\.\d{1,3}){3}$/.test(h) || h.startsWith("[");
}

/** The production domain and its www. twin count as production. */
export function isProductionHost(hostname: string, productionHost: string): boolean {
  const h = normalize(hostname);
  const p = normalize(productionHost);
  return p !== "" && (h === p || h === `www.${p}`);
}

export function showsDevelopmentBanner(hostname: string, productionHost: string): boolean {
  return !isProductionHost(hostname, productionHost);
}

/**
 * The URL to send this page to, or null to stay. `previewSuffixes` lists more preview domains (for
 * example ".pages.dev") that must stay reachable for review, on top of the builder platforms'.
 */
export function hostRedirectTarget(
  location: Pick<Location, "hostname" | "pathname" | "search" | "hash">,
  productionHost: string,
  previewSuffixes: readonly string[] = [],
): string | null {
  const host = normalize(location.hostname);
  if (!normalize(productionHost)) return null;
  if (isProductionHost(host, productionHost) || isLocalHost(host)) return null;
  if (isBuilderPreviewHost(host) || isBuilderPreviewHost(host, previewSuffixes)) return null;
  return `https://${normalize(productionHost)}${location.pathname}${location.search}${location.hash}`;
}
