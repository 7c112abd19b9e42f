import { markLocation } from '../../core/mark.ts';
import { answerPhrase, fieldArgs } from '../analyzers/form-answer.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';
import { messageKey } from '../../core/rule.ts';

const TAIL = 'so the answer does not satisfy the form of the request it answers ({request}).';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  field: `Answer field {field:json} {problem}, ${TAIL}`,
  fieldItem: `Answer field {field:json} item {item} {problem}, ${TAIL}`,
  answer: `The answer {problem}, ${TAIL}`,
  required: `The form requires field {name:json}, which the answer does not hold, ${TAIL}`,
  requiredDefault: `The form requires field {name:json}, which the answer does not hold (its \`default\` is an annotation, never injected into an answer), ${TAIL}`,
  absent: `The accepted result has no \`content\`, but {problem}, ${TAIL}`,
} as const;

/** Accepted data must satisfy the form, so a missing `content` is checked as `{}`; `innerPointer` in args. */
export const elicitationContentSchema = defineAhpStreamRule({
  id: 'ahp/elicitation-content-schema',
  severity: 'error',
  description: "An accepted form elicitation result's content satisfies the requestedSchema of the request it answers.",
  detail:
    'That is: required fields, types, options, bounds, formats; no default injected; a missing content holds no required field.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: MESSAGES,
  on: ['content'],
  onEvent(facts, ctx) {
    const c = facts.event?.content;
    if (c?.status !== 'checked' || c.problems.length === 0) return;
    const pointer = `${c.partPointer}/text`;
    const request = markLocation(c.request!, '/params/event/elicitation/request');
    for (const p of c.problems) {
      const field = fieldArgs(p);
      const messageId =
        p.keyword === 'required'
          ? c.absent
            ? 'absent'
            : p.messageId
          : p.pointer === ''
            ? 'answer'
            : field.item === undefined
              ? 'field'
              : 'fieldItem';
      ctx.report({
        pointer,
        messageId: messageKey(MESSAGES, messageId),
        args: {
          ...p.args,
          problem: answerPhrase(p),
          ...field,
          request,
          innerPointer: `/content${p.pointer}`,
          keyword: p.keyword,
        },
        related: [request],
      });
    }
  },
});
