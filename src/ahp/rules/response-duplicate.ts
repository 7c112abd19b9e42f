import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** An identical retry of the request (base/failure.md §Duplicate delivery and retries) may be answered again. */
export const responseDuplicate = defineAhpStreamRule({
  id: 'ahp/response-duplicate',
  severity: 'error',
  description: 'A request is answered at most once (an identical retry of the request may be answered again).',
  detail:
    'Also cited: base/transports/stdio.md §Process-per-event lifecycle; base/failure.md §Duplicate delivery and retries.',
  spec: 'AHP base/events.md §Common message envelope',
  messages: {
    again: 'The request with this id ({request}) was already answered on {first}; a request gets at most one response.',
  },
  on: ['response'],
  onEvent(facts, ctx) {
    const link = facts.response?.link;
    if (link?.status !== 'duplicate') return;
    const request = markLocation(link.request);
    const first = markLocation(link.first);
    ctx.report({ pointer: '/id', args: { request, first }, related: [request, first] });
  },
});
