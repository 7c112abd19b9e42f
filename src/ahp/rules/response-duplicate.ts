/**
 * ahp/response-duplicate (error): a request gets at most one response. A second response to a
 * request that was already answered (and not re-sent since) is reported at the second response.
 * An identical retry of the request (same JSON-RPC id, same event; base/failure.md §Duplicate
 * delivery and retries) is a further delivery and may be answered again. AHP base/events.md
 * §Common message envelope; base/transports/stdio.md §Process-per-event lifecycle ("writes at
 * most one response").
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/response-duplicate` rule, as described in the module comment above. */
export const responseDuplicate = defineAhpStreamRule({
  id: 'ahp/response-duplicate',
  severity: 'error',
  description: 'A request is answered at most once (an identical retry of the request may be answered again).',
  spec: 'AHP base/events.md §Common message envelope; base/transports/stdio.md §Process-per-event lifecycle; base/failure.md §Duplicate delivery and retries',
  onEvent(facts, ctx) {
    const link = facts.response?.link;
    if (link?.status !== 'duplicate') return;
    ctx.report({
      pointer: '/id',
      message: `The request with this id (line ${link.request.line}) was already answered on line ${link.first.line}; a request gets at most one response.`,
      related: [markLocation(link.request), markLocation(link.first)],
    });
  },
});
