import { defineEventRule } from '../../core/engine.ts';
import { describeValue } from '../../core/finding.ts';
import { isObj } from '../../core/value.ts';
import type { AepEvent } from '../event.ts';
import { STREAM_KINDS } from '../subprofile.ts';

/** `aep/stream-kind`: under `--profile aep-0007` only. */
export const streamKind = defineEventRule({
  id: 'aep/stream-kind',
  severity: 'error',
  description:
    'With --profile aep-0007: stream.started has data.kind (REQUIRED), one of message, reasoning, tool_args, output.',
  spec: 'AEP-0007 §4 stream.started',
  messages: {
    missing:
      'stream.started has no data.kind; kind is REQUIRED: message, reasoning, tool_args or output (AEP-0007 §4).',
    value: 'stream.started data.kind is not one of message, reasoning, tool_args, output (found {found}).',
  },
  types: ['stream.started'],
  check(ev: AepEvent, ctx) {
    if (!ev.subprofile || ev.type !== 'stream.started' || ev.capture === 'none') return;
    const data = ev.value.data;
    const kind = isObj(data) ? data.kind : undefined;
    if (kind === undefined) ctx.report({ pointer: isObj(data) ? '/data' : '', messageId: 'missing', args: {} });
    else if (typeof kind !== 'string' || !STREAM_KINDS.includes(kind))
      ctx.report({
        pointer: '/data/kind',
        messageId: 'value',
        args: { found: describeValue(kind) },
      });
  },
});
