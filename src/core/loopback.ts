/** Loopback hosts: the local test and development boundary (the AHP and MCP https rules leave them plain http; AEP-0003 §8.1 calls them on-host). */

// the WHATWG parser writes an IPv4-mapped address ::ffff:127.x.y.z (RFC 4291 §2.5.5.2) as [::ffff:7fxx:yyzz]
const MAPPED_LOOPBACK = /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/;

/**
 * Whether `host` (a WHATWG URL hostname) names the local machine: `localhost`, `*.localhost`, each also in its absolute
 * form with a trailing dot (RFC 6761 §6.3 names "localhost." and ".localhost."), 127.0.0.0/8, `[::1]` and 127.0.0.0/8
 * mapped into IPv6.
 */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  const name = h.endsWith('.') ? h.slice(0, -1) : h;
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(h) ||
    h === '[::1]' ||
    MAPPED_LOOPBACK.test(h)
  );
}
