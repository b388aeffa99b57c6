// Host names that always mean "this machine": the app treats them as a developer's machine (no
// production redirect, development banner), the local backend lets e-mail links send tokens to them
// and serves its development mailbox only to requests addressed to them. As URL.hostname spells them
// (IPv6 in brackets), plus the bare IPv6 form and the unspecified address a server may be bound to.

export const LOOPBACK_HOSTNAMES = ["localhost", "127.0.0.1", "[::1]", "::1", "0.0.0.0"] as const;

/** True for a loopback host name (case-insensitive, a trailing dot ignored). */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.trim().toLowerCase().replace(/\.$/, "");
  return (LOOPBACK_HOSTNAMES as readonly string[]).includes(h);
}

/** True for a connection's remote IP address that is this machine (IPv4 127/8, IPv6 ::1, mapped IPv4). */
export function isLoopbackAddress(addr: string): boolean {
  return addr === "::1" || addr.startsWith("127.") || addr.startsWith("::ffff:127.");
}
