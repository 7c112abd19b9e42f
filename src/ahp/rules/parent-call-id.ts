import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/parent-call-id`: an id that is both an event's and a call's is the event's. */
export const parentCallId = defineAhpStreamRule({
  id: 'ahp/parent-call-id',
  severity: 'error',
  description: "An event's parentEventId is an event id of its source, never a call id.",
  detail:
    "One that equals the event's own `call.id`, or the `call.id` of an earlier tool.before of the source, and names no event of the input so far, is a call id.",
  spec: 'AHP task-workspace-lineage.md §Lineage and actual changes',
  quote: '`parentEventId` is an event ID in that same source, never a call ID',
  messages: {
    own: "This event's parentEventId equals its own `call.id` and names no event; parentEventId is an event id, never a call id.",
    call: "This event's parentEventId equals the `call.id` of the tool.before at {call} and names no event; parentEventId is an event id, never a call id.",
  },
  on: ['parentIsCall'],
  onEvent(facts, ctx, state) {
    const d = facts.event?.parentIsCall;
    // after an unreadable line, an event with that id may have been there: ahp/parent-unverifiable
    if (!d || state.unreadable) return;
    if (d.call === undefined) {
      ctx.report({ pointer: '/params/event/parentEventId', messageId: 'own' });
      return;
    }
    const call = markLocation(d.call);
    ctx.report({ pointer: '/params/event/parentEventId', messageId: 'call', args: { call }, related: [call] });
  },
});
