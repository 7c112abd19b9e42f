/** Loopback hosts: the local test and development boundary the AHP and MCP https rules leave to plain http. */

/** Whether `host` (a WHATWG URL hostname) names the local machine: `localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '[::1]';
}
