import { markLocation, mayFollow } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** Read from analyzers/observations.ts: only an observation equal to the discarded edit is judged. */
export const observationLeak = defineAhpStreamRule({
  id: 'ahp/observation-leak',
  severity: 'error',
  description:
    'An observation carries only accepted effective content, never the modification of a rejected response to the same event.',
  detail:
    "When a response to an intercepted event is rejected (any invalid effect rejects it whole), an observation of the same event `(source, id)` whose modified member (the list `items`, `instructions` or `summary`, `tool.input`, `workspace.change`, `message.messages`, or an elicitation answer's `content`) equals what the response's `modify` would have produced, and not the intercepted value, leaks the discarded modification. A later accepted response to the same event (a retry) makes the edit legitimate. An observation that differs from the intercepted copy in any other way may carry another interceptor's accepted edit and is not judged.",
  spec: 'AHP observation-disposition.md',
  quote:
    "The host's settlement controller supplies only accepted effective content. Pending or discarded modifications must not leak into observations",
  messages: {
    leak: 'The observed `{member}` is what the modify of the rejected response at {response} would have produced; a discarded modification must not leak into the observation.',
  },
  on: ['leak'],
  onEvent(facts, ctx, state) {
    for (const l of facts.event?.leak ?? []) {
      // a line after the rejected response that gave no message may have held an accepted retry: ahp/observation-unverifiable
      // a late response's edit (after a hook.failure that may be another backend's): ahp/observation-unverifiable
      if (l.late) continue;
      if (state.unreadable && mayFollow(state.unreadable, l.response)) return;
      const response = markLocation(l.response, '/result/effects');
      const member = l.member.replaceAll('/', '.');
      ctx.report({ pointer: `/params/event/${l.member}`, args: { member, response }, related: [response] });
    }
  },
});
