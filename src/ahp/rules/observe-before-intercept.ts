import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/**
 * `ahp/observe-before-intercept`: the harness writes one backend's messages in order, and it observes an event only
 * after the pipeline that intercepts it resolved, so an intercept request after the event's observation came late.
 */
export const observeBeforeIntercept = defineAhpStreamRule({
  id: 'ahp/observe-before-intercept',
  severity: 'error',
  description:
    'An event is observed only after its interception resolved: a hooks/intercept request of an event this stream already delivered through hooks/observe is an error.',
  detail:
    'The harness resolves the serial interception pipeline before dispatching observations, and that pipeline is every matching interceptor of the event, on whichever backend, so the observation of an event follows every interception of it: the order is that of the event (its `(source, id)`), not of a connection or a session. An intercept request of the event after its observation means the observation went out while decision-making was still open (or the interception came after settlement). Only an observation earlier in the same input counts (inputs given together may be captures of several backends, whose relative order is not shown); the messages name no connection (AHP has no handshake), so one file is read as one capture in sending order (README). An observation sent before the intercept response is not judged: after a deadline the harness applies failure policy and may observe while a late response is still to come. An intercept request whose event differs from the observation in its metadata is another event reusing the id (ahp/event-id-reuse). Also cited: base/composition.md §Observers ("Dispatch observations after settlement") and §Interceptor order.',
  spec: 'AHP observation-disposition.md §Observation delivery after settlement',
  quote: 'Resolve the serial interception pipeline before dispatching observations.',
  messages: {
    late: 'This hooks/intercept request intercepts the event already observed at {observed}; observations are dispatched only after the interception pipeline resolves.',
  },
  on: ['observedFirst'],
  onEvent(facts, ctx) {
    const at = facts.event?.observedFirst;
    if (!at) return;
    const observed = markLocation(at);
    ctx.report({ pointer: '/params/event/id', args: { observed }, related: [observed] });
  },
});
