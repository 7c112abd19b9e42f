import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';

/** `aep/stream-delta-severity`: under `--profile aep-0007` only; an absent severity is `info` (AEP-0001 §8.1). */
export const streamDeltaSeverity = defineEventRule({
  id: 'aep/stream-delta-severity',
  severity: 'warning',
  description:
    'With --profile aep-0007: a stream.delta carries severity "debug", so backpressure sheds deltas first (an absent severity is "info").',
  spec: 'AEP-0007 §4 (severity defaults); AEP-0003 §8.4',
  messages: {
    severity:
      'stream.delta has severity {severity:json}; deltas SHOULD carry "debug" so slow consumers shed them first (AEP-0007 §4).',
  },
  types: ['stream.delta'],
  check(ev: AepEvent, ctx) {
    // a member that failed the schema stage is unknown, not absent: its own finding says so
    if (ev.untrusted?.has('severity')) return;
    if (!ev.subprofile || ev.type !== 'stream.delta') return;
    const s = ev.value.severity;
    if (s === 'debug') return;
    ctx.report({
      pointer: typeof s === 'string' ? '/severity' : '',
      args: { severity: typeof s === 'string' ? s : 'info' },
    });
  },
});
