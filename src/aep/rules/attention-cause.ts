import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';

/** The lifecycle events after `attention.requested` (AEP-0002 §7). */
const FOLLOWERS = ['attention.routed', 'attention.answered', 'attention.resolved', 'attention.timeout'] as const;

/**
 * `aep/attention-cause`: presence only. The immediate cause may be an event of another emitter or outside the input
 * (a `control.attention.respond`, AEP-0004), so which id it names is not judged.
 */
export const attentionCause = defineEventRule({
  id: 'aep/attention-cause',
  severity: 'warning',
  description:
    'An attention lifecycle event after attention.requested (routed, answered, resolved, timeout) sets cause to the id of its immediate cause.',
  spec: 'AEP-0002 §7 item 1',
  messages: {
    missing:
      '{type} has no cause; lifecycle events after attention.requested SHOULD set cause to the id of their immediate cause (AEP-0002 §7).',
  },
  types: FOLLOWERS,
  check(ev: AepEvent, ctx) {
    // a member that failed the schema stage is unknown, not absent: its own finding says so
    if (ev.untrusted?.has('cause')) return;
    if ((FOLLOWERS as readonly string[]).includes(ev.type) && typeof ev.value.cause !== 'string')
      ctx.report({ pointer: '', args: { type: ev.type } });
  },
});
