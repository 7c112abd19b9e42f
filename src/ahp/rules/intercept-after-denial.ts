import { markLocation, mayFollow } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/**
 * `ahp/intercept-after-denial`: an observation of the refused event (short-circuit observations to uncalled
 * subscriptions, observation-disposition.md) is not an interception and is not judged.
 */
export const interceptAfterDenial = defineAhpStreamRule({
  id: 'ahp/intercept-after-denial',
  severity: 'error',
  description:
    'An event whose interception was refused (an accepted `deny`, or a fail-closed `hook.failure` naming it) is not sent through hooks/intercept again.',
  detail:
    'A denial is never retried, and denial or a fail-closed failure ends the interceptor chain. Also cited: base/composition.md §Interceptor order (AHP-COMP-001)',
  spec: 'AHP base/failure.md §Duplicate delivery and retries',
  quote: 'A harness MUST NOT retry an explicit denial',
  messages: {
    again:
      'This hooks/intercept request sends the event first intercepted at {prior} again after it was refused at {denied}; a denial is never retried and ends decision-making for the event.',
  },
  on: ['interceptAfterDenial'],
  onEvent(facts, ctx, state) {
    const d = facts.event?.interceptAfterDenial;
    if (!d) return;
    // a line between the request and the denial that gave no message may have been a hook.failure making the denial late (base/failure.md §Deadlines)
    if (state.unreadable && mayFollow(state.unreadable, d.prior) && mayFollow(d.deniedAt, state.unreadable)) return;
    const prior = markLocation(d.prior);
    const denied = markLocation(d.deniedAt);
    ctx.report({ pointer: '/params/event/id', args: { prior, denied }, related: [prior, denied] });
  },
});
