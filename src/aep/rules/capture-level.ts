/**
 * aep/capture-level: a payload field whose capture annotation ranks above the event's
 * `capture` (default metadata) is a violation. AEP-0001 §8.2(a); AEP-0002 §5.1 rule 1.
 */
import type { EventRule } from '../../core/rule.ts';
import { captureTreeFor } from '../payload.ts';
import { captureViolations } from '../capture.ts';
import type { AepEvent } from '../event.ts';

/** The `aep/capture-level` rule, as described in the module comment above. */
export const captureLevel: EventRule<AepEvent> = {
  id: 'aep/capture-level',
  severity: 'error',
  description: 'No payload field is present whose capture annotation ranks above the event capture level.',
  spec: 'AEP-0001 §8.2; AEP-0002 §5.1',
  check(ev, ctx) {
    if (ev.capture === 'none') return; // aep/capture-none reports the whole payload
    const data = ev.value.data;
    if (data === undefined) return;
    const tree = captureTreeFor(ev.type);
    if (!tree) return; // vendor or schema-less type: no annotations (AEP-0002 §5.1 rule 4)
    for (const v of captureViolations(data, tree, ev.capture)) {
      ctx.report({
        pointer: v.pointer,
        message: `Field ${v.pointer} requires capture "${v.level}" or above, but the event declares capture "${ev.capture}".`,
        data: { required: v.level, declared: ev.capture },
      });
    }
  },
};
