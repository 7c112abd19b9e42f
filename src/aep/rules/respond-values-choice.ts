/**
 * aep/respond-values-choice (warning): in a `control.attention.respond`, a select value is one
 * of the field's `choices[].id`, unless the field has `other: true`.
 * The command comes from a sender, and the spec's answer to invalid values is on the target:
 * "An emitter MUST reject (`control.rejected{reason:"invalid"}`)" (AEP-0006 amending
 * AEP-0002 §5.3), so the values are a warning here, and accepting them is
 * aep/respond-invalid-accepted. The same problem in an `attention.answered` is
 * aep/form-values-choice (error). See form-common.ts.
 */
import { formIssueRule, RESPOND_SPEC } from '../analyzers/form-common.ts';

/** The `aep/respond-values-choice` rule, as described in the module comment above. */
export const respondValuesChoice = formIssueRule(
  {
    id: 'aep/respond-values-choice',
    severity: 'warning',
    description:
      'In a control.attention.respond, a select value is one of its choice ids unless the field allows other free text (the target must reject it otherwise).',
    spec: RESPOND_SPEC,
  },
  'choice',
  ['respond'],
);
