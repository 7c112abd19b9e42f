import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

const MAX_RELATED = 20;

/** `aep/ended-with-open-attention`: `attention.answered` does not close a request; checked at the first `session.ended`. */
export const endedWithOpenAttention = defineStreamRule({
  id: 'aep/ended-with-open-attention',
  severity: 'error',
  description: 'A session does not end while an attention request it raised is still open.',
  spec: 'AEP-0002 §7.2',
  messages: {
    one: 'session.ended while 1 attention request raised in this session is still open (first at {first}); close each with attention.resolved or attention.timeout before ending the session.',
    many: 'session.ended while {open} attention requests raised in this session are still open (first at {first}); close each with attention.resolved or attention.timeout before ending the session.',
  },
  on: ['endedWithOpen'],
  onEvent(f: AepFacts, ctx) {
    const open = f.endedWithOpen;
    if (!open || f.unreadable) return; // aep/absence-unverifiable
    ctx.report({
      pointer: '/type',
      messageId: open.length === 1 ? 'one' : 'many',
      args: { open: open.length, first: markLocation(open[0]!.at) },
      related: open.slice(0, MAX_RELATED).map((r) => markLocation(r.at)),
    });
  },
});
