import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** An operational failure (base/failure.md §Failure classes); before any request only for a notification's id. */
export const responseUnmatched = defineAhpStreamRule({
  id: 'ahp/response-unmatched',
  severity: 'error',
  description:
    'A response answers a pending hooks/intercept or hooks/capabilities request of the stream with a result of that method; notifications are never answered.',
  detail:
    'A response whose id is the event id of an earlier hooks/observe notification (an event no intercept request of the input carried) is this error whatever came before it, in an input without requests too: AHP gives that id only to the intercept request of that event (base/events.md: "The JSON-RPC request `id` MUST equal `params.event.id`"), and an event\'s interception is resolved before it is observed (observation-disposition.md), so no request awaits it. Any other response before the input\'s first request is ahp/response-uncorrelated. Also cited: base/failure.md §Failure classes; observation-disposition.md.',
  spec: 'AHP base/events.md §Common message envelope (AHP-RPC-002)',
  messages: {
    unmatched:
      'No request of the input awaits a response with this id: the response answers nothing (a notification is never answered, and a mismatched id is an operational failure).',
    notification:
      "This response's id is the event id of the hooks/observe notification at {notification} and no request awaits it: a notification MUST NOT receive a JSON-RPC response, and the intercept request of that event (its id is the event id) was resolved before the event was observed.",
    manifestForIntercept:
      'The response carries a capabilities manifest, but the request with this id is hooks/intercept; discovery and interception results are never combined or swapped.',
    effectsForCapabilities:
      'The response carries effects, but the request with this id is hooks/capabilities; discovery and interception results are never combined or swapped.',
  },
  on: ['response'],
  onEvent(facts, ctx) {
    const link = facts.response?.link;
    if (link?.status === 'unmatched') {
      if (link.notification === undefined) ctx.report({ pointer: '/id', messageId: 'unmatched' });
      else {
        const notification = markLocation(link.notification);
        ctx.report({ pointer: '/id', messageId: 'notification', args: { notification }, related: [notification] });
      }
    } else if (link?.status === 'matched' && link.mismatch)
      ctx.report({
        pointer: '/result',
        messageId: link.mismatch === 'manifest-for-intercept' ? 'manifestForIntercept' : 'effectsForCapabilities',
        args: { request: markLocation(link.request.at) },
        related: [markLocation(link.request.at)],
      });
  },
});
