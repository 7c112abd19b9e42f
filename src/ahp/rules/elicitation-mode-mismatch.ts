import { defineEventRule } from '../../core/engine.ts';
import { checksOf, parsedObject } from '../elicitation-body.ts';
import type { AhpMessage } from '../message.ts';

/** `ahp/elicitation-mode-mismatch`: absent means form. */
export const elicitationModeMismatch = defineEventRule({
  id: 'ahp/elicitation-mode-mismatch',
  severity: 'error',
  description: 'The envelope elicitation mode equals the mode of the parsed MCP request (absent means form).',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    differs:
      'The envelope mode is {mode:json} but the serialized MCP request has mode {parsedMode:json}; the AHP mode must equal the parsed mode.',
    absent:
      'The envelope mode is {mode:json} but the serialized MCP request has no `mode` (which means form); the AHP mode must equal the parsed mode.',
  },
  types: ['user.elicitation.request'],
  check(msg: AhpMessage, ctx) {
    const c = checksOf(msg.elicitation);
    if (c?.checks.kind !== 'request') return;
    const value = parsedObject(c.checks);
    if (!value) return;
    const mode = c.checks.envelope.mode;
    const parsedMode = value.mode === undefined ? 'form' : value.mode;
    if ((parsedMode === 'form' || parsedMode === 'url') && typeof mode === 'string' && mode !== parsedMode)
      ctx.report({
        pointer: `${msg.eventPointer}/elicitation/mode`,
        messageId: value.mode === undefined ? 'absent' : 'differs',
        args: { mode, parsedMode, partPointer: c.partPointer, innerPointer: value.mode === undefined ? '' : '/mode' },
      });
  },
});
