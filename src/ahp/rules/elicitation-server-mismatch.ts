import { markLocation } from '../../core/mark.ts';
import { isObj } from '../../core/value.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/elicitation-server-mismatch`: the result repeats the requesting server's identity and never replaces it. */
export const elicitationServerMismatch = defineAhpStreamRule({
  id: 'ahp/elicitation-server-mismatch',
  severity: 'error',
  description: 'A user.elicitation.result repeats the server identity of the request it answers.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    other:
      "This result names another server than the request it answers ({request}); the result repeats the requesting server's identity and never replaces it.",
  },
  on: ['pair'],
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    const el = facts.msg.event?.elicitation;
    if (pair?.parent !== 'request' || !pair.request || !isObj(el)) return;
    const server = el.server;
    if (typeof server !== 'string' || typeof pair.request.server !== 'string' || server === pair.request.server) return;
    const request = markLocation(pair.parentAt!, '/params/event/elicitation/server');
    ctx.report({ pointer: '/params/event/elicitation/server', args: { request }, related: [request] });
  },
});
