import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

const HEAD = 'The answer of this accepted form result cannot be checked against its form:';

/** `ahp/elicitation-content-unverifiable`: not verified, never a silent pass. */
export const elicitationContentUnverifiable = defineAhpStreamRule({
  id: 'ahp/elicitation-content-unverifiable',
  severity: 'info',
  description:
    "An accepted form elicitation result's content cannot be checked against its request's form (request absent, a view, invalid, without a request part, or its form released).",
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    'no-request': `${HEAD} the request it answers is not in the input; its content is not verified.`,
    'request-view': `${HEAD} its request was delivered as a metadata, omit or gap view, without the form; its content is not verified.`,
    'request-invalid': `${HEAD} its request body failed the MCP checks; its content is not verified.`,
    'request-absent': `${HEAD} its request carried no request part; its content is not verified.`,
    'request-released': `${HEAD} its request's form, released after an earlier answer to it was checked, was forgotten to keep the stream state within the memory budget (\`--max-state-mb\`; library: \`stream: { maxStateMb }\`); its content is not verified (the first result the budget left unverified in this run).`,
    'request-released-more': `${HEAD} its request's form, released after an earlier answer to it was checked, was forgotten to keep the stream state within the memory budget (\`--max-state-mb\`; library: \`stream: { maxStateMb }\`); its content is not verified ({lostToBudget} results the budget left unverified in this run).`,
  },
  on: ['content'],
  onEvent(facts, ctx) {
    const c = facts.event?.content;
    if (!c || c.status === 'checked') return;
    const request = c.request ? markLocation(c.request, '/params/event/elicitation/request') : undefined;
    ctx.report({
      pointer: `${c.partPointer}/text`,
      messageId: c.lost !== undefined && c.lost > 1 ? 'request-released-more' : c.status,
      ...(c.lost ? { args: { lostToBudget: c.lost } } : {}),
      ...(request ? { related: [request] } : {}),
    });
  },
});
