import { defineEventRule } from '../../core/engine.ts';
import { captureViolations } from '../capture.ts';
import type { AepEvent } from '../event.ts';
import { captureTreeFor } from '../schema/validators.ts';

/** `aep/capture-level`: the event's `capture` defaults to metadata. */
export const captureLevel = defineEventRule({
  id: 'aep/capture-level',
  severity: 'error',
  description: 'No payload field is present whose capture annotation ranks above the event capture level.',
  spec: 'AEP-0001 §8.2; AEP-0002 §5.1',
  messages: {
    above: 'Field {field} requires capture {required:json} or above, but the event declares capture {declared:json}.',
  },
  check(ev: AepEvent, ctx) {
    if (ev.capture === 'none') return; // aep/capture-none reports the whole payload
    const data = ev.value.data;
    if (data === undefined) return;
    const tree = ev.info?.captureTree ?? captureTreeFor(ev.type);
    if (!tree) return; // vendor or schema-less type: no annotations (AEP-0002 §5.1 rule 4)
    for (const v of captureViolations(data, tree, ev.capture))
      ctx.report({ pointer: v.pointer, args: { field: v.pointer, required: v.level, declared: ev.capture } });
  },
});
