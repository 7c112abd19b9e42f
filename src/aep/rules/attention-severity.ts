import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';

/** Severities at or above `notice` (AEP-0001 §8.1 order). */
const NOTICE_OR_ABOVE: ReadonlySet<unknown> = new Set(['notice', 'warning', 'error', 'critical']);

/** `aep/attention-severity`: an absent severity is `info` (AEP-0001 §8.1), below the recommendation. */
export const attentionSeverity = defineEventRule({
  id: 'aep/attention-severity',
  severity: 'warning',
  description:
    'An attention.requested carries severity "notice" or above (RECOMMENDED), so routing and backpressure treat a human-needed moment as one (an absent severity is "info").',
  spec: 'AEP-0002 §4.1 attention.requested; AEP-0003 §8.4',
  messages: {
    low: 'attention.requested has severity {severity:json}; "notice" or above is RECOMMENDED for a request that needs a human (AEP-0002 §4.1).',
  },
  types: ['attention.requested'],
  check(ev: AepEvent, ctx) {
    // a member that failed the schema stage is unknown, not absent: its own finding says so
    if (ev.untrusted?.has('severity')) return;
    if (ev.type !== 'attention.requested') return;
    const s = ev.value.severity;
    if (NOTICE_OR_ABOVE.has(s)) return;
    ctx.report({
      pointer: typeof s === 'string' ? '/severity' : '',
      args: { severity: typeof s === 'string' ? s : 'info' },
    });
  },
});
