import { defineEventRule } from '../../core/engine.ts';
import type { RuleContext } from '../../core/rule.ts';
import { isObj } from '../../core/value.ts';
import { isLoopback } from '../../core/loopback.ts';
import { registrationHooks, type AhpMessage } from '../message.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  insecure:
    'The endpoint `{member}` uses plain http to a host that is not loopback; remote endpoints must use https (base/transports/http.md §TLS, content-upload.md).',
} as const;

const PLAIN_HTTP = /^http:\/\//i;

/** Report `url` at `pointer` when it is plain HTTP to a host that is not loopback. */
function check(url: unknown, pointer: string, member: string, ctx: RuleContext<typeof MESSAGES>): void {
  if (typeof url !== 'string' || !PLAIN_HTTP.test(url)) return;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return; // not a URL: the schema stage reports its format
  }
  if (!isLoopback(host)) ctx.report({ pointer, args: { member } });
}

/**
 * `ahp/endpoint-insecure`: one rule for every remote endpoint a registration configures (policy transport and upload).
 */
export const endpointInsecure = defineEventRule({
  id: 'ahp/endpoint-insecure',
  severity: 'error',
  description:
    'A remote endpoint in a registration uses `https`: an HTTP transport `url` or a subscription `upload.endpoint` with plain `http://` to a non-loopback host is an error.',
  detail:
    'The transport `url` is `hooks[].transport`\'s; loopback is `localhost`, `*.localhost` (also with the trailing dot of RFC 6761 §6.3, `localhost.`), 127.0.0.0/8, `[::1]` and 127.0.0.0/8 mapped into IPv6 (`[::ffff:127.0.0.1]`). Plain HTTP to a loopback address passes (the explicitly trusted local test/process boundary). An "explicitly controlled local development environment" on another host is a deployment fact the document cannot show: such a registration is reported, as the one rule for policy and upload endpoints alike. Also cited: capability-auth.md §Authentication bindings ("Remote HTTP MUST use TLS with receiver validation"); content-upload.md §Configuration and destination ("HTTPS with receiver validation is required except for explicitly configured loopback tests")',
  spec: 'AHP base/transports/http.md §TLS',
  quote: 'Remote endpoints MUST use https',
  messages: MESSAGES,
  check(msg: AhpMessage, ctx) {
    const hooks = registrationHooks(msg);
    if (!hooks) return;
    for (let i = 0; i < hooks.length; i++) {
      const hook: unknown = hooks[i];
      if (!isObj(hook)) continue;
      if (isObj(hook.transport) && hook.transport.type === 'http')
        check(hook.transport.url, `/hooks/${i}/transport/url`, `hooks[${i}].transport.url`, ctx);
      if (!Array.isArray(hook.subscriptions)) continue;
      for (let j = 0; j < hook.subscriptions.length; j++) {
        const sub: unknown = hook.subscriptions[j];
        if (isObj(sub) && isObj(sub.upload))
          check(
            sub.upload.endpoint,
            `/hooks/${i}/subscriptions/${j}/upload/endpoint`,
            `hooks[${i}].subscriptions[${j}].upload.endpoint`,
            ctx,
          );
      }
    }
  },
});
