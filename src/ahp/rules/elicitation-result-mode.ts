import { markLocation } from '../../core/mark.ts';
import { isObj } from '../../core/value.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/elicitation-result-mode`. */
export const elicitationResultMode = defineAhpStreamRule({
  id: 'ahp/elicitation-result-mode',
  severity: 'error',
  description: 'A user.elicitation.result repeats the normalized mode (form or url) of the request it answers.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    differs:
      "This result has mode {mode:json} but the request it answers ({request}) has mode {requestMode:json}; a result repeats its request's mode.",
  },
  on: ['pair'],
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    const el = facts.msg.event?.elicitation;
    if (pair?.parent !== 'request' || !pair.request || !isObj(el)) return;
    const mode = el.mode;
    const requestMode = pair.request.mode;
    if (typeof mode !== 'string' || typeof requestMode !== 'string' || mode === requestMode) return;
    const request = markLocation(pair.parentAt!, '/params/event/elicitation/mode');
    ctx.report({ pointer: '/params/event/elicitation/mode', args: { mode, requestMode, request }, related: [request] });
  },
});
