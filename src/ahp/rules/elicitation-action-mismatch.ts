import { defineEventRule } from '../../core/engine.ts';
import { checksOf, parsedObject } from '../elicitation-body.ts';
import type { AhpMessage } from '../message.ts';

/** `ahp/elicitation-action-mismatch`. */
export const elicitationActionMismatch = defineEventRule({
  id: 'ahp/elicitation-action-mismatch',
  severity: 'error',
  description: 'The envelope elicitation action equals the action of the parsed MCP result.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    differs:
      'The envelope action is {action:json} but the serialized MCP result has action {parsedAction:json}; they must be equal.',
  },
  types: ['user.elicitation.result'],
  check(msg: AhpMessage, ctx) {
    const c = checksOf(msg.elicitation);
    if (c?.checks.kind !== 'result') return;
    const value = parsedObject(c.checks);
    if (!value) return;
    const action = c.checks.envelope.action;
    const parsedAction = value.action;
    if (
      typeof parsedAction === 'string' &&
      ['accept', 'decline', 'cancel'].includes(parsedAction) &&
      typeof action === 'string' &&
      action !== parsedAction
    )
      ctx.report({
        pointer: `${msg.eventPointer}/elicitation/action`,
        args: { action, parsedAction, partPointer: c.partPointer, innerPointer: '/action' },
      });
  },
});
