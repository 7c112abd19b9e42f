/**
 * The download policy of `pin refresh`: https only (loopback http for a mirror), redirects within one origin (at most
 * 5), a size cap and a timeout per source; network problems become findings.
 */
import type { Finding } from '../core/finding.ts';
import type { MessageArgs } from '../core/message.ts';
import { isLoopbackHost } from './model.ts';
import { pinFinding } from './rules.ts';

/** Default cap on one downloaded body: 8 MiB. */
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;
/** Default timeout for one download including redirects and body: 30 000 ms. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** System error codes of a host that cannot be resolved or reached (no network, no route, refused). */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'ECONNRESET',
]);

const MAX_REDIRECTS = 5;

export type Download = { ok: true; bytes: Buffer } | { ok: false; finding: Finding };

/** True when `url` may be requested at all: https, or http on loopback when allowed. */
function schemeAllowed(url: URL, allowLoopbackHttp: boolean): boolean {
  return url.protocol === 'https:' || (allowLoopbackHttp && url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

/** Download one URL under this policy; `source` names the file in findings. Never throws for network problems. */
export async function download(
  url: string,
  source: string,
  limits: { timeoutMs: number; maxBytes: number; allowLoopbackHttp: boolean; mirror?: boolean },
): Promise<Download> {
  const fail = (
    id: 'pin/fetch-failed' | 'pin/redirect-refused' | 'pin/response-too-large',
    messageId: string,
    args: MessageArgs = {},
  ): Download => ({ ok: false, finding: pinFinding(id, source, messageId, { url, ...args }) });
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let current = new URL(url);
  if (!schemeAllowed(current, limits.allowLoopbackHttp)) {
    return fail('pin/fetch-failed', 'scheme');
  }
  try {
    for (let hop = 0; ; hop++) {
      const res = await fetch(current, { redirect: 'manual', signal });
      if ([301, 302, 303, 307, 308].includes(res.status)) {
        await res.body?.cancel();
        const location = res.headers.get('location');
        if (!location) return fail('pin/fetch-failed', 'noLocation', { at: current.href, status: res.status });
        const next = new URL(location, current);
        if (next.protocol !== current.protocol || next.host !== current.host) {
          return fail('pin/redirect-refused', 'crossOrigin', {
            host: current.host,
            origin: `${next.protocol}//${next.host}`,
            location: next.href,
          });
        }
        if (hop + 1 > MAX_REDIRECTS) return fail('pin/redirect-refused', 'tooMany', { max: MAX_REDIRECTS });
        current = next;
        continue;
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        return fail('pin/fetch-failed', 'status', { at: current.href, status: res.status });
      }
      const declared = Number(res.headers.get('content-length') ?? NaN);
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        await res.body?.cancel();
        return fail('pin/response-too-large', 'declared', { at: current.href, declared, maxBytes: limits.maxBytes });
      }
      const chunks: Buffer[] = [];
      let total = 0;
      if (res.body) {
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          total += value.byteLength;
          if (total > limits.maxBytes) {
            await reader.cancel();
            return fail('pin/response-too-large', 'sent', { at: current.href, maxBytes: limits.maxBytes });
          }
          chunks.push(Buffer.from(value));
        }
      }
      return { ok: true, bytes: Buffer.concat(chunks, total) };
    }
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    if (err.name === 'TimeoutError' || signal.aborted) {
      return fail('pin/fetch-failed', 'timeout', { at: current.href, timeoutMs: limits.timeoutMs });
    }
    const code = err.cause?.code;
    const detail = code ?? err.cause?.message ?? err.message;
    // no route to the host: say what refresh needs instead of a bare resolver code
    const unreachable = code !== undefined && NETWORK_CODES.has(code);
    const messageId = !unreachable ? 'failed' : limits.allowLoopbackHttp || limits.mirror ? 'mirrorDown' : 'offline';
    return fail('pin/fetch-failed', messageId, { at: current.href, detail, ...(unreachable ? { code } : {}) });
  }
}
