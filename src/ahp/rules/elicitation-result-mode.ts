/**
 * ahp/elicitation-result-mode (error): a `user.elicitation.result` repeats the normalized mode
 * of the request it answers: a form request gets a form result, a URL request a URL result.
 * (The MCP `ElicitResult` has no mode, so only the pair can show that a result claiming "form",
 * and carrying form content, answers a URL request.) Judged on the first occurrence of the result
 * when its parent request is in the input.
 * AHP interaction-payloads.md §MCP elicitation binding (2025-11-25) ("The result repeats that
 * identity and normalized mode").
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/elicitation-result-mode` rule, as described in the module comment above. */
export const elicitationResultMode = defineAhpStreamRule({
  id: 'ahp/elicitation-result-mode',
  severity: 'error',
  description: 'A user.elicitation.result repeats the normalized mode (form or url) of the request it answers.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    const ev = facts.msg.event;
    if (pair?.parent !== 'request' || !pair.request || !ev) return;
    const el = ev.elicitation as Record<string, unknown> | undefined;
    const mode = el?.mode;
    const reqMode = pair.request.mode;
    if (typeof mode !== 'string' || typeof reqMode !== 'string' || mode === reqMode) return;
    ctx.report({
      pointer: '/params/event/elicitation/mode',
      message: `This result has mode "${mode}" but the request it answers (line ${pair.parentAt!.line}) has mode "${reqMode}"; a result repeats its request's mode.`,
      related: [markLocation(pair.parentAt!, '/params/event/elicitation/mode')],
    });
  },
});
