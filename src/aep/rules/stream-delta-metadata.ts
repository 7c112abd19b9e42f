import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';

/** `aep/stream-delta-metadata` (`--profile aep-0007`): a warning, as such a delta is permitted. */
export const streamDeltaMetadata = defineEventRule({
  id: 'aep/stream-delta-metadata',
  severity: 'warning',
  description:
    'With --profile aep-0007: below capture "redacted" an emitter suppresses stream.delta (emitting only stream.started and stream.finished).',
  detail: 'A delta at capture "metadata" or "none" is permitted but warned about.',
  spec: 'AEP-0007 §6 item 2',
  messages: {
    delta:
      'stream.delta at capture {capture:json}; below "redacted" emitters SHOULD suppress deltas and emit only stream.started and stream.finished (AEP-0007 §6).',
  },
  types: ['stream.delta'],
  check(ev: AepEvent, ctx) {
    if (!ev.subprofile || ev.type !== 'stream.delta' || (ev.capture !== 'metadata' && ev.capture !== 'none')) return;
    ctx.report({ pointer: typeof ev.value.capture === 'string' ? '/capture' : '', args: { capture: ev.capture } });
  },
});
