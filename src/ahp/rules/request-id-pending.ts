import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** Read from analyzers/correlation.ts: only a pending request of the other method counts (an identical retry is a delivery). */
export const requestIdPending = defineAhpStreamRule({
  id: 'ahp/request-id-pending',
  severity: 'error',
  description:
    'A request never reuses the JSON-RPC id of a request of the other method that still awaits its response.',
  detail:
    'A hooks/intercept and a hooks/capabilities request pending under one id make the responses impossible to correlate by id; the sender of the requests (the harness) is at fault, so the responses are then matched by their result shape and not blamed. A re-sent identical intercept request (a retry of the same event) is one more delivery, not this error, unless a request of the other method is pending under the id too: a third request under a shared id reuses the id of that one as well, so it is this error as the second was. Also cited: JSON-RPC 2.0 §4 (the id correlates the response with its request); base/events.md §Common message envelope.',
  spec: 'AHP base/transports/stdio.md §Persistent lifecycle',
  quote: 'The harness MUST correlate responses by JSON-RPC ID',
  messages: {
    pending:
      'This request reuses the id of the {method} request at {prior}, which still awaits its response; responses are correlated by JSON-RPC id, so two pending requests never share one.',
  },
  on: ['idPending'],
  onEvent(facts, ctx) {
    const p = facts.idPending;
    if (p === undefined) return;
    const prior = markLocation(p.prior);
    ctx.report({ pointer: '/id', args: { method: p.method, prior }, related: [prior] });
  },
});
