import { defineEventRule } from '../../core/engine.ts';
import { childPointer } from '../../core/pointer.ts';
import type { RuleContext } from '../../core/rule.ts';
import { CLASS_DESCRIPTIONS, credentialIn } from '../../core/secrets.ts';
import { isObj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  carries:
    'JSON-RPC error `{member}` carries {what}; error `data` must not contain secrets (base/errors.md §JSON-RPC errors).',
} as const;

/** Report each credential-bearing string of `error.data`, by its value's shape or its member's name on the wire. */
function walk(
  v: unknown,
  key: string | undefined,
  pointer: string,
  rel: string,
  ctx: RuleContext<typeof MESSAGES>,
): void {
  if (typeof v === 'string') {
    const m =
      credentialIn(v) ?? (key !== undefined ? credentialIn(`${JSON.stringify(key)}: ${JSON.stringify(v)}`) : undefined);
    if (m)
      ctx.report({ pointer, messageId: 'carries', args: { member: `data${rel}`, what: CLASS_DESCRIPTIONS[m.class] } });
    return;
  }
  // a number is a value too: read with its name (`"api_key": 12345678901234`)
  if (typeof v === 'number' && key !== undefined) {
    const m = credentialIn(`${JSON.stringify(key)}: ${v}`);
    if (m)
      ctx.report({ pointer, messageId: 'carries', args: { member: `data${rel}`, what: CLASS_DESCRIPTIONS[m.class] } });
    return;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) walk(v[i], undefined, `${pointer}/${i}`, `${rel}/${i}`, ctx);
  } else if (isObj(v))
    for (const [k, x] of Object.entries(v)) walk(x, k, childPointer(pointer, k), childPointer(rel, k), ctx);
}

/** `ahp/error-data-secret`: src/core/secrets.ts over `error.data`; the message never shows the value. */
export const errorDataSecret = defineEventRule({
  id: 'ahp/error-data-secret',
  severity: 'error',
  description: 'A JSON-RPC error response carries no secret in `error.data`.',
  detail:
    'A string with a credential-shaped value (PEM block, AWS access key id, Bearer token, JWT, provider token), or a member whose name and value (a string or a number) read as a password/secret/api-key/token assignment or a PIN. A secret without a recognisable shape or name cannot be seen.',
  spec: 'AHP base/errors.md §JSON-RPC errors; capability-auth.md §Authentication bindings',
  messages: MESSAGES,
  check(msg: AhpMessage, ctx) {
    if (msg.kind !== 'error-response') return;
    const error = msg.value.error;
    if (!isObj(error) || !Object.hasOwn(error, 'data')) return;
    walk(error.data, undefined, '/error/data', '', ctx);
  },
});
