/**
 * ahp/response-uncorrelated (info): the input holds no request at all before a response (a
 * capture of one direction of the traffic, or a single HTTP response body), so responses cannot
 * be correlated with requests. Reported once per run, at the first such response: correlation is
 * not verified, never silently passed (ahp/response-unmatched judges responses once a request
 * was seen). AHP base/events.md §Common message envelope ("JSON-RPC request IDs correlate
 * responses with pending requests").
 */
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/response-uncorrelated` rule, as described in the module comment above. */
export const responseUncorrelated = defineAhpStreamRule({
  id: 'ahp/response-uncorrelated',
  severity: 'info',
  description:
    'A response arrives in an input that holds no request before it, so responses cannot be correlated with requests (correlation is not verified; no AHP message proves that a capture holds a connection from its start).',
  spec: 'AHP base/events.md §Common message envelope (AHP-RPC-002)',
  onEvent(facts, ctx) {
    const link = facts.response?.link;
    if (link?.status !== 'uncorrelatable' || !link.first) return;
    ctx.report({
      pointer: '/id',
      message:
        'The input holds no request before this response, so responses cannot be correlated with requests (a capture of one direction only?); correlation is not verified.',
    });
  },
});
