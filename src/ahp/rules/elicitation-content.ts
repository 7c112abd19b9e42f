import { defineEventRule } from '../../core/engine.ts';
import { checksOf, parsedObject } from '../elicitation-body.ts';
import type { AhpMessage } from '../message.ts';

/** `ahp/elicitation-content`. */
export const elicitationContent = defineEventRule({
  id: 'ahp/elicitation-content',
  severity: 'error',
  description: 'MCP result content appears only for an accepted form result.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    notAccepted:
      'The serialized MCP result carries `content`, which is only allowed for an accepted form result (envelope mode "{mode}", action "{action}").',
  },
  types: ['user.elicitation.result'],
  check(msg: AhpMessage, ctx) {
    const c = checksOf(msg.elicitation);
    if (c?.checks.kind !== 'result') return;
    const value = parsedObject(c.checks);
    if (!value || !('content' in value)) return;
    const { mode, action } = c.checks.envelope;
    if (!(action === 'accept' && mode === 'form'))
      ctx.report({
        pointer: c.checks.textPointer,
        args: { mode: String(mode), action: String(action), partPointer: c.partPointer, innerPointer: '/content' },
      });
  },
});
