import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/response-uncorrelated`: once per run, at the first response before any request; never a silent pass. */
export const responseUncorrelated = defineAhpStreamRule({
  id: 'ahp/response-uncorrelated',
  severity: 'info',
  description:
    'A response arrives in a stdio capture that holds no request before it, so responses cannot be correlated with requests (not verified).',
  detail:
    "No AHP message proves that a capture holds a connection from its start. Notifications before the response show the harness-to-backend direction, yet its request may still precede the capture: a persistent backend may have an intercept request outstanding when the capture begins (base/transports/stdio.md §Persistent lifecycle), and observations of other events are not ordered against it (observation-disposition.md). A response whose id is an earlier notification's event id is ahp/response-unmatched instead. An HTTP binding response body gets no finding: the binding returns the correlated response on the POST of its request (AHP base/transports/http.md AHP-HTTP-001), so a lone body has nothing to correlate.",
  spec: 'AHP base/events.md §Common message envelope (AHP-RPC-002)',
  messages: {
    noRequest:
      'The input holds no request before this response, so responses cannot be correlated with requests (a capture of one direction only?); correlation is not verified.',
    afterNotifications:
      'The input holds no request before this response, only notifications (the first at {notification}), so its request may precede the capture and responses cannot be correlated with requests; correlation is not verified.',
  },
  on: ['response'],
  onEvent(facts, ctx) {
    const link = facts.response?.link;
    if (link?.status !== 'uncorrelatable' || !link.first) return;
    if (link.notification === undefined) ctx.report({ pointer: '/id', messageId: 'noRequest' });
    else {
      const notification = markLocation(link.notification);
      ctx.report({ pointer: '/id', messageId: 'afterNotifications', args: { notification }, related: [notification] });
    }
  },
});
