/**
 * aep/respond-values-required (warning): in a `control.attention.respond`, `values` covers
 * every field with `required: true` (no partial answers).
 * The command comes from a sender, and the spec's answer to invalid values is on the target:
 * "An emitter MUST reject (`control.rejected{reason:"invalid"}`)" (AEP-0006 amending
 * AEP-0002 §5.3), so the values are a warning here, and accepting them is
 * aep/respond-invalid-accepted. The same problem in an `attention.answered` is
 * aep/form-values-required (error). See form-common.ts.
 */
import { formIssueRule, RESPOND_SPEC } from '../analyzers/form-common.ts';

/** The `aep/respond-values-required` rule, as described in the module comment above. */
export const respondValuesRequired = formIssueRule(
  {
    id: 'aep/respond-values-required',
    severity: 'warning',
    description:
      'In a control.attention.respond, form values cover every field marked required (the target must reject it otherwise).',
    spec: RESPOND_SPEC,
  },
  'required',
  ['respond'],
);
