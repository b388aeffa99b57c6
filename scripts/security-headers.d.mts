export const HARDENING_HEADERS: Readonly<Record<string, string>>;
export const STRICT_TRANSPORT_SECURITY: string;
export const ANY_HOSTED_BACKEND: string[];
export function inlineScriptHashes(html: string): string[];
export function backendSources(url: unknown): string[];
export function contentSecurityPolicy(options?: { scriptHashes?: string[]; backend?: string[] }): string;
export function staticHostHeaders(options: { scriptHashes: string[]; backendUrl?: string }): string;
