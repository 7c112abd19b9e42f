import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/elicitation-session-mismatch`: an answer belongs to the session of its request. */
export const elicitationSessionMismatch = defineAhpStreamRule({
  id: 'ahp/elicitation-session-mismatch',
  severity: 'error',
  description:
    'A user.elicitation.result repeats the session id of the request its parentEventId names (when the request carries one): another session, or none, is a correlation failure.',
  detail: 'Also cited: execution-payloads.md §Identity and native boundary duties.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    other:
      'This result is in another session than the request it names as parent ({request}); an answer belongs to the session of its request.',
    absent:
      'This result carries no session, but the request it names as parent ({request}) is in a session; an answer repeats the session of its request.',
  },
  on: ['pair'],
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    if (pair?.parent !== 'request' || !pair.sessionMismatch) return;
    const request = markLocation(pair.parentAt!, '/params/event/session/id');
    ctx.report({
      pointer: pair.sessionMismatch === 'absent' ? '/params/event' : '/params/event/session/id',
      messageId: pair.sessionMismatch,
      args: { request },
      related: [request],
    });
  },
});
