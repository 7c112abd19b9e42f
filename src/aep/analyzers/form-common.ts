import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { RuleMeta } from '../../core/rule.ts';
import type { FormIssueKind } from '../forms.ts';
import type { FormObservation } from './form-values.ts';
import type { AepFacts } from './model.ts';

/** Pointer of `answer.values` in both event types. */
export const VALUES_POINTER = '/data/answer/values';

/** The common citation of the form-values rules. */
export const FORM_SPEC = 'AEP-0006; AEP-0002 §5.3 attention.answered values; AEP-0004 §5';

/** The citation of the respond-values rules. */
export const RESPOND_SPEC = 'AEP-0006; AEP-0002 §5.3 values (MUST reject); AEP-0004 §3, §5';

/** The templates of each kind of form issue, keyed by the `messageId` src/aep/forms.ts gives. */
const FORM_ISSUE_MESSAGES: Readonly<Record<FormIssueKind, Readonly<Record<string, string>>>> = {
  type: {
    type: 'The {fieldType} field {field:json} takes {expected}, but its value is {found}.',
    item: 'Item {item} of the multi {fieldType} field {field:json} is {found}, not a choice id string.',
  },
  required: {
    required: 'Required {fieldType} field {field:json} has no entry in `values`.',
    absent: 'Required {fieldType} field {field:json} is not answered: this answer to a form has no `values`.',
  },
  choice: {
    choice:
      'The closed {fieldType} field {field:json} (no `other`) is answered with {found} that is none of its {choices}.',
    item: 'Item {item} of the closed multi {fieldType} field {field:json} (no `other`) is {found} that is none of its {choices}.',
  },
  'unknown-key': {
    unknown:
      'Key {key:json} names no field of the form ({fields} field{fields:s}); `values` is keyed by field_spec.id.',
  },
  capture: {
    capture:
      'The {fieldType} field {field:json} carries free text ({found}) at capture {capture:json}; string-field values and `other` free text need capture "redacted" or above.',
  },
};

/**
 * A rule reporting each `kind` issue of `values` on events of `roles`: errors on `attention.answered` (the emitter's
 * record),
 * warnings on a respond (`aep/respond-values-*`: a command the target MUST reject, AEP-0006 amending AEP-0002 §5.3).
 */
export function formIssueRule<const Id extends string>(
  meta: Omit<RuleMeta, 'messages'> & { id: Id },
  kind: FormIssueKind,
  roles: readonly FormObservation['role'][],
) {
  const answered = roles.includes('answered');
  const respond = roles.includes('respond');
  return defineStreamRule({
    ...meta,
    messages: FORM_ISSUE_MESSAGES[kind],
    on: ['form'],
    onEvent(f: AepFacts, ctx) {
      const form = f.form;
      if (form?.outcome.kind !== 'checked' || !(form.role === 'answered' ? answered : respond)) return;
      const request = form.outcome.request;
      for (const issue of form.outcome.issues) {
        if (issue.kind !== kind) continue;
        ctx.report({
          pointer: form.absent ? '/data/answer' : VALUES_POINTER + issue.pointer,
          messageId: form.absent ? 'absent' : issue.messageId,
          args: issue.args,
          related: [
            markLocation(request, issue.fieldIndex === undefined ? '/data/fields' : `/data/fields/${issue.fieldIndex}`),
          ],
        });
      }
    },
  });
}
