import type { MessageArgs } from '../core/message.ts';
import { childPointer } from '../core/pointer.ts';
import { ruleMessage, type RuleMeta } from '../core/rule.ts';
import { isObj, own } from '../core/value.ts';
import { checkEffects, hostContextOf, type RejectionCode } from './analyzers/effects.ts';
import { effectNotAdvertised } from './rules/effect-not-advertised.ts';
import { modifyInvalid } from './rules/modify-invalid.ts';
import { returnInvalid } from './rules/return-invalid.ts';
import { AHP_SCHEMA_RULES } from './schema/rules.ts';

/** An issue of {@link checkEditContext}, shaped like the message validator's findings. */
export interface EditContextIssue {
  /** `ahp/effect` (a malformed effect), ahp/effect-not-advertised, ahp/modify-invalid or ahp/return-invalid. */
  ruleId: string;
  severity: 'error';
  pointer: string;
  /** The sentence, rendered from the rule's template `messageId` with `args`. */
  message: string;
  messageId: string;
  args?: MessageArgs;
}

function rejectionRule(code: RejectionCode): RuleMeta {
  return code === 'malformed'
    ? AHP_SCHEMA_RULES['ahp/effect']
    : code === 'not-advertised'
      ? effectNotAdvertised
      : code === 'return'
        ? returnInvalid
        : modifyInvalid;
}

function issue(rule: RuleMeta, pointer: string, messageId: string, args?: MessageArgs): EditContextIssue {
  return {
    ruleId: rule.id,
    severity: 'error',
    pointer,
    message: ruleMessage(rule, messageId, args, ''),
    messageId,
    ...(args ? { args } : {}),
  };
}

/** The contextual `modify` verdict of an upstream fixture manifest case (`contextualExpectedValid` + `editContext`). */
export function checkEditContext(message: unknown, editContext: unknown): EditContextIssue[] {
  const ctx = hostContextOf(editContext);
  if (!ctx) return [issue(modifyInvalid, '', 'noContext')];
  const result = isObj(message) && isObj(message.result) ? message.result : undefined;
  if (!result || !own(result, 'effects')) return [issue(modifyInvalid, '/result', 'noEffects')];
  const out = checkEffects(result.effects, ctx);
  if (out.accepted) return [];
  return out.reasons.map((r) =>
    issue(rejectionRule(r.code), childPointer('/result', 'effects') + r.pointer, r.messageId, r.args),
  );
}
