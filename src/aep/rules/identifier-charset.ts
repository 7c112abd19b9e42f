import { defineEventRule } from '../../core/engine.ts';
import type { RuleContext } from '../../core/rule.ts';
import type { AepEvent } from '../event.ts';

/** AEP-0003 §9 item 6: the interop-safe identifier grammar. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const MESSAGES = {
  charset:
    'Attribute {name} is a string of {length} char{length:s} outside the interop-safe grammar [A-Za-z0-9._-] starting with a letter or digit (AEP-0003 §9.6); consumers must encode it before using it in a path, URL or query.',
} as const;

/** Report attribute `name` when it is a non-empty string outside the grammar (named loads: a keyed one an event showed). */
function judge(name: string, v: unknown, ctx: RuleContext<typeof MESSAGES>): void {
  if (typeof v === 'string' && v.length > 0 && !SAFE_ID.test(v))
    ctx.report({ pointer: `/${name}`, args: { name, length: [...v].length } });
}

/** A warning: a SHOULD, and the envelope "deliberately does not enforce a pattern" (AEP-0003 §9 item 6). */
export const identifierCharset = defineEventRule({
  id: 'aep/identifier-charset',
  severity: 'warning',
  description:
    'session, run and step values keep to [A-Za-z0-9._-] and start with a letter or digit, the interop-safe grammar adapters SHOULD keep to (AEP-0003 §9 item 6).',
  detail: 'A warning: the envelope deliberately enforces no pattern, since some sources mint arbitrary ids.',
  spec: 'AEP-0003 §9 item 6; AEP-0001 §12',
  messages: MESSAGES,
  check(ev: AepEvent, ctx) {
    const v = ev.value;
    judge('session', v.session, ctx);
    judge('run', v.run, ctx);
    judge('step', v.step, ctx);
  },
});
