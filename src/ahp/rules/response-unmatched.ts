/**
 * ahp/response-unmatched (error): a response must answer a pending request of the stream. Its
 * JSON-RPC id names a `hooks/intercept` or `hooks/capabilities` request still awaiting an answer
 * (a notification has no id and is never answered), and its result fits that method (an
 * intercept request is not answered with a capabilities manifest, nor a discovery request with
 * effects). AHP base/events.md §Common message envelope ("JSON-RPC request IDs correlate
 * responses with pending requests"; "A notification ... MUST NOT receive a JSON-RPC response");
 * base/failure.md §Failure classes (mismatched request and response ids are an operational
 * failure).
 *
 * When the input holds no request at all (a capture of one direction, or a single HTTP response
 * body) nothing can be correlated: ahp/response-uncorrelated (info) says so. An error response with a null id (the request id could not be read) is
 * not correlated. After `--max-pending` was exceeded, a response matching nothing is not
 * reported (it may answer an untracked request; `ahp/state-cap` says so).
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/response-unmatched` rule, as described in the module comment above. */
export const responseUnmatched = defineAhpStreamRule({
  id: 'ahp/response-unmatched',
  severity: 'error',
  description:
    'A response answers a pending hooks/intercept or hooks/capabilities request of the stream with a result of that method; notifications are never answered.',
  spec: 'AHP base/events.md §Common message envelope (AHP-RPC-002); base/failure.md §Failure classes',
  onEvent(facts, ctx) {
    const link = facts.response?.link;
    if (!link) return;
    if (link.status === 'unmatched') {
      ctx.report({
        pointer: '/id',
        message:
          'No request of the input awaits a response with this id: the response answers nothing (a notification is never answered, and a mismatched id is an operational failure).',
      });
    } else if (link.status === 'matched' && link.mismatch) {
      const [got, method] =
        link.mismatch === 'manifest-for-intercept'
          ? ['a capabilities manifest', 'hooks/intercept']
          : ['effects', 'hooks/capabilities'];
      ctx.report({
        pointer: '/result',
        message: `The response carries ${got}, but the request with this id is ${method}; discovery and interception results are never combined or swapped.`,
        related: [markLocation(link.request.at)],
      });
    }
  },
});
