/**
 * ahp/elicitation-content-unverifiable (info): the answer of an accepted form
 * `user.elicitation.result` cannot be checked against the form of its request: the request is
 * not in the input, was delivered as a metadata / omit / gap view, carried no request part,
 * failed its own checks, or its form was released after an earlier answer to it was checked
 * (elicitation.ts). One finding at the result part's `text` says the content is not verified:
 * never a silent pass (ahp/elicitation-content-schema judges the answers that can be checked).
 * AHP interaction-payloads.md §MCP elicitation binding (2025-11-25) ("must satisfy the
 * requesting form schema").
 */
import { markLocation } from '../../core/mark.ts';
import type { ContentFacts } from '../analyzers/elicitation.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

const WHY: Record<Exclude<ContentFacts['status'], 'checked'>, string> = {
  'no-request': 'the request it answers is not in the input',
  'request-view': 'its request was delivered as a metadata, omit or gap view, without the form',
  'request-invalid': 'its request body failed the MCP checks',
  'request-absent': 'its request carried no request part',
  'request-released':
    "its request's form, released after an earlier answer to it was checked, was forgotten to keep the stream state within the memory budget (--max-state-mb)",
};

/** The `ahp/elicitation-content-unverifiable` rule, as described in the module comment above. */
export const elicitationContentUnverifiable = defineAhpStreamRule({
  id: 'ahp/elicitation-content-unverifiable',
  severity: 'info',
  description:
    "An accepted form elicitation result's content cannot be checked against its request's form (request absent, a view, invalid, without a request part, or its form released).",
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  onEvent(facts, ctx) {
    const c = facts.event?.content;
    if (!c || c.status === 'checked') return;
    ctx.report({
      pointer: `${c.partPointer}/text`,
      message: `The answer of this accepted form result cannot be checked against its form: ${WHY[c.status]}; its content is not verified${c.lost ? ` (${c.lost === 1 ? 'the first result' : `${c.lost} results`} the budget left unverified in this run)` : ''}.`,
      ...(c.lost ? { data: { lostToBudget: c.lost } } : {}),
      ...(c.request ? { related: [markLocation(c.request, '/params/event/elicitation/request')] } : {}),
    });
  },
});
