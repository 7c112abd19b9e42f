/**
 * aep/capture-none: an event at `capture: "none"` carries no payload content.
 * AEP-0001 §8.2 (`none` = envelope only).
 */
import type { EventRule } from '../../core/rule.ts';
import type { AepEvent } from '../event.ts';

/** The `aep/capture-none` rule, as described in the module comment above. */
export const captureNone: EventRule<AepEvent> = {
  id: 'aep/capture-none',
  severity: 'error',
  description: 'An event with capture "none" carries no payload content.',
  spec: 'AEP-0001 §8.2',
  check(ev, ctx) {
    if (ev.capture !== 'none') return;
    const data = ev.value.data;
    if (data === undefined) return;
    const n = data && typeof data === 'object' ? Object.keys(data).length : 0;
    if (n === 0) return;
    ctx.report({
      pointer: '/data',
      message: `The event declares capture "none" but carries a payload with ${n} member${n === 1 ? '' : 's'}; "none" means envelope only.`,
    });
  },
};
