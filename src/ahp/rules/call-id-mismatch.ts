import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/call-id-mismatch`: compared when the parent tool.before precedes the event in the input. */
export const callIdMismatch = defineAhpStreamRule({
  id: 'ahp/call-id-mismatch',
  severity: 'error',
  description:
    "A tool.after or tool.progress whose parentEventId names a tool.before reuses that before's `call.id`: the call identity stays stable across the invocation's boundaries.",
  detail: 'Also cited: base/events.md §Tool invocation and completion.',
  spec: 'AHP server/lifecycle-observation.md §`tool.after`',
  quote: 'It MUST reuse the `callId` from `tool.before`',
  messages: {
    differs:
      "This event parents to the tool.before at {before} but its `call.id` differs from that before's; the call identity stays stable across the invocation's boundaries.",
  },
  on: ['callMismatch'],
  onEvent(facts, ctx) {
    const d = facts.event?.callMismatch;
    if (!d) return;
    const before = markLocation(d.before);
    ctx.report({ pointer: '/params/event/call/id', args: { before }, related: [before] });
  },
});
