import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';
import { messageKey } from '../../core/rule.ts';

const VIEW =
  "not content; a supplied result replaces the operation's result with content (metadata, omit and gap views describe content withheld from a subscriber, and a view is not an executable value).";
const FORM = "The supplied answer does not satisfy the request's form:";

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  contract: 'The supplied result breaks the {event} return contract: {sentence}',
  unbounded: '`return` is bounded to {events}; {event} has no return contract, so no result can be supplied here.',
  bareParts:
    'Item {item} is a bare content part, but the {event} return value is a canonical message list: each item is a message that owns its role and ordered parts.',
  messageItem:
    'Item {item} is a canonical message, but the {event} return value (the supplied summary) is a text-part list.',
  answerShape: 'The supplied answer field {field:json} breaks the pinned MCP answer shape: {problem}.',
  gap: `This part is a gap, ${VIEW}`,
  omitView: `This part is an omit view, ${VIEW}`,
  metadataView: `This part is a metadata view, ${VIEW}`,
  attachment:
    'This attachment reference is not an unchanged, authorized attachment of the intercepted event; attachment references cannot be substituted (uploads carry harness-to-subscriber bodies, and an opaque reference grants no access).',
  urlContent:
    'The request is a URL-mode elicitation, whose results omit `content`; a supplied answer cannot carry form data for it.',
  contentNotAccepted: 'A {action} result omits `content`; content is present only for accepted form data.',
  form: `${FORM} {problem}.`,
  formField: `${FORM} field {field:json} {problem}.`,
  formFieldItem: `${FORM} field {field:json} item {item} {problem}.`,
  formNoContent: `${FORM} it has no \`content\`, and {problem}.`,
  formNoContentField: `${FORM} it has no \`content\`, and field {field:json} {problem}.`,
} as const;

/** One contract per event whose bounds admit `return`; an unadvertised `return` is `ahp/effect-not-advertised`'s. */
export const returnInvalid = defineAhpStreamRule({
  id: 'ahp/return-invalid',
  severity: 'error',
  description:
    "A return effect's value satisfies the contract of the boundary it answers; otherwise the whole response is rejected.",
  detail:
    "The contracts: any JSON value at tool.before, messages at model.request.before, text parts at context.compact.before, an ElicitResult keeping the request's mode and form at user.elicitation.request. Also cited: capability-auth.md §Event-semantic capability bounds.",
  spec: 'AHP base/composition.md §Atomic effect acceptance',
  messages: MESSAGES,
  on: ['effects'],
  onEvent(facts, ctx) {
    const fx = facts.effects;
    if (!fx || fx.outcome.accepted) return;
    const request = markLocation(fx.request.at, '/params/event');
    for (const r of fx.outcome.reasons)
      if (r.code === 'return')
        ctx.report({
          pointer: `/result/effects${r.pointer}`,
          messageId: messageKey(MESSAGES, r.messageId),
          ...(r.args ? { args: r.args } : {}),
          related: [request],
        });
  },
});
