import { defineStreamRule } from '../../core/engine.ts';
import type { RuleMeta } from '../../core/rule.ts';
import type { FormIssueKind } from '../forms.ts';
import { issueReport, type FormObservation } from './form-values.ts';
import type { AepFacts, AepStreamState } from './model.ts';

/** The common citation of the form-values rules. */
export const FORM_SPEC = 'AEP-0006; AEP-0002 §5.3 attention.answered values; AEP-0004 §5';

/** The citation of the respond-values rules. */
export const RESPOND_SPEC = 'AEP-0006; AEP-0002 §5.3 values (MUST reject); AEP-0004 §3, §5';

/** How the respond-values rules judge a command (AEP-0006 amending AEP-0002 §5.3; AEP-0004 §3 acks). */
export const RESPOND_DETAIL =
  'The MUST-reject binds the receiving emitter, so the command is judged by what its target did: a control.rejected with reason invalid whose cause names it is the required behaviour and no finding; an acceptance or an answer it caused reports this warning beside aep/respond-invalid-accepted (an error); a rejection for another reason, or no ack in the input by its end, reports this warning alone, at the command.';

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

/** A rule reporting each `kind` issue of `values` on events of `roles` as it comes (`attention.answered` records). */
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
      for (const issue of form.outcome.issues)
        if (issue.kind === kind) ctx.report(issueReport(form, form.outcome.request, issue));
    },
  });
}

/** A rule reporting each `kind` issue of an invalid respond once its target decided (held-responds.ts). */
export function respondIssueRule<const Id extends string>(
  meta: Omit<RuleMeta, 'messages'> & { id: Id },
  kind: FormIssueKind,
) {
  return defineStreamRule({
    ...meta,
    messages: FORM_ISSUE_MESSAGES[kind],
    on: ['respondIssues'],
    onEvent(f: AepFacts, ctx) {
      for (const i of f.respondIssues!) if (i.kind === kind) ctx.report(i.report);
    },
    onEnd(state: AepStreamState, ctx) {
      // no decision seen: an unreadable line may have held it (README §Decisions on unreadable lines)
      if (state.unreadable) return;
      for (const i of state.control.held.undecided((s) => state.control.mayBeAcked(s)))
        if (i.kind === kind) ctx.report(i.report);
    },
  });
}
