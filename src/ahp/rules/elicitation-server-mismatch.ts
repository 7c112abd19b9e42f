/**
 * ahp/elicitation-server-mismatch (error): a `user.elicitation.result` repeats the `server` of
 * the request it answers. `server` preserves the requesting MCP server's identity (scoped by the
 * adapter/source) and must never be replaced, e.g. by the responding user's identity; a result
 * naming another server answers a request from someone else. Judged on the first occurrence of
 * the result when its parent request is in the input.
 * AHP interaction-payloads.md §MCP elicitation binding (2025-11-25).
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/elicitation-server-mismatch` rule, as described in the module comment above. */
export const elicitationServerMismatch = defineAhpStreamRule({
  id: 'ahp/elicitation-server-mismatch',
  severity: 'error',
  description: 'A user.elicitation.result repeats the server identity of the request it answers.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    const ev = facts.msg.event;
    if (pair?.parent !== 'request' || !pair.request || !ev) return;
    const el = ev.elicitation as Record<string, unknown> | undefined;
    const server = el?.server;
    if (typeof server !== 'string' || typeof pair.request.server !== 'string' || server === pair.request.server) return;
    ctx.report({
      pointer: '/params/event/elicitation/server',
      message: `This result names another server than the request it answers (line ${pair.parentAt!.line}); the result repeats the requesting server's identity and never replaces it.`,
      related: [markLocation(pair.parentAt!, '/params/event/elicitation/server')],
    });
  },
});
