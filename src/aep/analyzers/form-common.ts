/**
 * Shared reporting for the form-values rules (form-values-*.ts, respond-values-*.ts), which
 * read the form facts of form-values.ts.
 *
 * Severity, by who states the values: on `attention.answered` every structural problem is an
 * error (`aep/form-values-*`: the answered record is the emitter's validated statement). On
 * `control.attention.respond` the structural problems (type, required, choice) are warnings
 * under their own ids (`aep/respond-values-*`): the command comes from a sender, and the
 * protocol's answer to it is `control.rejected{reason:"invalid"}` (AEP-0006 amending AEP-0002
 * §5.3: "An emitter MUST reject"); accepting it is `aep/respond-invalid-accepted`. Unknown keys
 * (a warning) and capture gating (an error: capture honesty binds every event, AEP-0001 §8.2)
 * are one rule each for both.
 */
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

/**
 * A rule reporting every `kind` issue of a checked `values` on events of `roles`
 * (`answered`: `attention.answered`; `respond`: `control.attention.respond`).
 */
export function formIssueRule<const Id extends string>(
  meta: RuleMeta & { id: Id },
  kind: FormIssueKind,
  roles: readonly FormObservation['role'][],
) {
  const answered = roles.includes('answered');
  const respond = roles.includes('respond');
  return defineStreamRule({
    ...meta,
    on: ['form'],
    onEvent(f: AepFacts, ctx) {
      const form = f.form;
      if (form?.outcome.kind !== 'checked' || !(form.role === 'answered' ? answered : respond)) return;
      const request = form.outcome.request;
      for (const issue of form.outcome.issues) {
        if (issue.kind !== kind) continue;
        ctx.report({
          pointer: VALUES_POINTER + issue.pointer,
          message: issue.message,
          data: { field: issue.fieldId },
          related: [
            markLocation(request, issue.fieldIndex === undefined ? '/data/fields' : `/data/fields/${issue.fieldIndex}`),
          ],
        });
      }
    },
  });
}
