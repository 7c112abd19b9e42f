import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';
import { messageKey } from '../../core/rule.ts';

const AT_ELICITATION = 'At user.elicitation.result, `content` is the MCP answer object, so both replace and merge';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  selection:
    'Target `{target}` is not exposed: its content selection is "{selection}", and only body selection can expose a modification target.',
  readOnly: 'Target `{target}` needs both read and write permission; the host grants read only.',
  writeOnly: 'Target `{target}` needs both read and write permission; the host grants write only.',
  noPermission: 'Target `{target}` needs both read and write permission; the host grants neither.',
  notAcceptedForm:
    '`modify(content)` at user.elicitation.result is only possible for an accepted form result; this result has mode "{mode}" and action "{action}".',
  answerNotObject: `${AT_ELICITATION} take an object; found {found} (a list here must be rejected).`,
  answerField: 'The answer field {field:json} breaks the pinned MCP answer shape: {problem}.',
  answerMergeBase: 'A merge needs an object answer to merge into; the current answer is not an object.',
  effectiveAnswer: 'The effective answer is not an MCP answer object: {problem}.',
  effectiveAnswerField: 'The effective answer is not an MCP answer object: field {field:json} {problem}.',
  form: 'The effective answer does not satisfy the original requested form: {problem}.',
  formField: 'The effective answer does not satisfy the original requested form: field {field:json} {problem}.',
  formFieldItem:
    'The effective answer does not satisfy the original requested form: field {field:json} item {item} {problem}.',
  outboundNotList:
    'At user.message.outbound, `content` is the canonical message list, so the value must be a list of messages; found {found} (an object here must be rejected).',
  contentElsewhere:
    'The `content` target exists only at user.message.outbound (a message list) and user.elicitation.result (the answer object), not at {event}.',
  notMessageList: 'The `{target}` value is a canonical message list; found {found}.',
  notTextPartList: 'The `{target}` value is a text-part list; found {found}.',
  notObject: 'The `{target}` value is an object; found {found}.',
  mergeBase: 'A merge into `{target}` needs an object current value; found {found}.',
  workspace: 'The effective workspace state breaks its closed schema: {sentence}',
  workspaceMerge: 'The effective workspace state after this shallow merge breaks its closed schema: {sentence}',
  role: 'A message of `{target}` at {event} must have role "{role}".',
  hiddenText:
    'A whole-list replacement of `{target}` is rejected because the current list holds metadata, omitted or gap text; append with merge instead (changing identities must not bypass hidden-text selection).',
  attachment:
    'Attachment part {id} carries a body reference that is not an unchanged, authorized attachment of the current `{target}`; attachment bytes and references cannot be edited or substituted.',
  noContext: 'The edit context is not an object with an event type and current target values.',
  noEffects: 'The message is not an intercept response with `result.effects`.',
} as const;

/**
 * The checks of analyzers/effects-modify.ts in the request's host context. A rejected response applies nothing ("do not
 * salvage even a valid deny"), but that is the invalid effect's consequence, not a second defect: only the effects that
 * break a rule are reported, each by its own rule (README §Decisions on AHP decisions, responses and advertisements,
 * "A rejected response's valid effects").
 */
export const modifyInvalid = defineAhpStreamRule({
  id: 'ahp/modify-invalid',
  severity: 'error',
  description:
    "A response's modify effects fit the pending event (a response with any invalid effect is rejected as a whole; the invalid effect is the finding).",
  detail:
    'Fit: an elicitation answer object of an accepted form, an outbound message list, an effective answer valid for the original form. Also cited: base/composition.md §Atomic effect acceptance.',
  spec: 'AHP interaction-payloads.md §Elicitation modification target',
  messages: MESSAGES,
  on: ['effects'],
  onEvent(facts, ctx) {
    const fx = facts.effects;
    if (!fx || fx.outcome.accepted) return;
    const request = markLocation(fx.request.at, '/params/event');
    for (const r of fx.outcome.reasons) {
      if (r.code === 'malformed' || r.code === 'not-advertised' || r.code === 'return') continue;
      ctx.report({
        pointer: `/result/effects${r.pointer}`,
        messageId: messageKey(MESSAGES, r.messageId),
        ...(r.args ? { args: r.args } : {}),
        related: [request],
      });
    }
  },
});
