import { defineEventRule } from '../../core/engine.ts';
import { isObj } from '../../core/value.ts';
import type { AepEvent } from '../event.ts';

/** `aep/stream-delta-text`: under `--profile aep-0007` only; below `redacted` the delta's `text` is absent by rule (§6). */
export const streamDeltaText = defineEventRule({
  id: 'aep/stream-delta-text',
  severity: 'error',
  description: 'With --profile aep-0007: a stream.delta at capture "redacted" or "full" carries text (REQUIRED there).',
  spec: 'AEP-0007 §4 stream.delta',
  messages: {
    missing:
      'stream.delta at capture {capture:json} has no data.text; at capture "redacted" and above text is REQUIRED (AEP-0007 §4).',
  },
  types: ['stream.delta'],
  check(ev: AepEvent, ctx) {
    if (!ev.subprofile || ev.type !== 'stream.delta' || (ev.capture !== 'redacted' && ev.capture !== 'full')) return;
    const d = ev.value.data;
    if (!isObj(d) || !Object.hasOwn(d, 'text'))
      ctx.report({ pointer: isObj(d) ? '/data' : '', args: { capture: ev.capture } });
  },
});
