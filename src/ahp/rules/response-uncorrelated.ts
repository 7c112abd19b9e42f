import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/response-uncorrelated`: once per run, at the first response before any request; never a silent pass. */
export const responseUncorrelated = defineAhpStreamRule({
  id: 'ahp/response-uncorrelated',
  severity: 'info',
  description:
    'A response arrives in a stdio capture that holds no request before it, so responses cannot be correlated with requests (not verified).',
  detail:
    'No AHP message proves that a capture holds a connection from its start. An HTTP binding response body is not one: the binding returns the correlated response on the POST of its request (AHP base/transports/http.md AHP-HTTP-001), so a lone body has nothing to correlate.',
  spec: 'AHP base/events.md §Common message envelope (AHP-RPC-002)',
  messages: {
    noRequest:
      'The input holds no request before this response, so responses cannot be correlated with requests (a capture of one direction only?); correlation is not verified.',
  },
  on: ['response'],
  onEvent(facts, ctx) {
    const link = facts.response?.link;
    if (link?.status === 'uncorrelatable' && link.first) ctx.report({ pointer: '/id' });
  },
});
