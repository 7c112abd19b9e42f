import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';

/** `aep/capture-none`: `none` is the envelope only. */
export const captureNone = defineEventRule({
  id: 'aep/capture-none',
  severity: 'error',
  description: 'An event with capture "none" carries no payload content.',
  detail:
    'An empty data ({}) carries none and passes, as an absent one: AEP-0002 §5.1 rule 1 omits every member above the capture, at "none" all of them.',
  spec: 'AEP-0001 §8.2',
  messages: {
    payload:
      'The event declares capture "none" but carries a payload with {members} member{members:s}; "none" means envelope only.',
  },
  check(ev: AepEvent, ctx) {
    if (ev.capture !== 'none') return;
    const data = ev.value.data;
    if (data === undefined) return;
    const members = data && typeof data === 'object' ? Object.keys(data).length : 0;
    if (members === 0) return;
    ctx.report({ pointer: '/data', args: { members } });
  },
});
