import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** An operational failure (base/failure.md §Failure classes); not judged before any request or past `--max-pending`. */
export const responseUnmatched = defineAhpStreamRule({
  id: 'ahp/response-unmatched',
  severity: 'error',
  description:
    'A response answers a pending hooks/intercept or hooks/capabilities request of the stream with a result of that method; notifications are never answered.',
  detail: 'Also cited: base/failure.md §Failure classes.',
  spec: 'AHP base/events.md §Common message envelope (AHP-RPC-002)',
  messages: {
    unmatched:
      'No request of the input awaits a response with this id: the response answers nothing (a notification is never answered, and a mismatched id is an operational failure).',
    manifestForIntercept:
      'The response carries a capabilities manifest, but the request with this id is hooks/intercept; discovery and interception results are never combined or swapped.',
    effectsForCapabilities:
      'The response carries effects, but the request with this id is hooks/capabilities; discovery and interception results are never combined or swapped.',
  },
  on: ['response'],
  onEvent(facts, ctx) {
    const link = facts.response?.link;
    if (link?.status === 'unmatched') ctx.report({ pointer: '/id', messageId: 'unmatched' });
    else if (link?.status === 'matched' && link.mismatch)
      ctx.report({
        pointer: '/result',
        messageId: link.mismatch === 'manifest-for-intercept' ? 'manifestForIntercept' : 'effectsForCapabilities',
        args: { request: markLocation(link.request.at) },
        related: [markLocation(link.request.at)],
      });
  },
});
