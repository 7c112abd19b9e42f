/**
 * aep/respond-values-type (warning): in a `control.attention.respond`, each `values` entry has
 * the JSON type its field demands (see aep/form-values-type).
 * The command comes from a sender, and the spec's answer to invalid values is on the target:
 * "An emitter MUST reject (`control.rejected{reason:"invalid"}`)" (AEP-0006 amending
 * AEP-0002 §5.3), so the values are a warning here, and accepting them is
 * aep/respond-invalid-accepted. The same problem in an `attention.answered` is
 * aep/form-values-type (error). See form-common.ts.
 */
import { formIssueRule, RESPOND_SPEC } from '../analyzers/form-common.ts';

/** The `aep/respond-values-type` rule, as described in the module comment above. */
export const respondValuesType = formIssueRule(
  {
    id: 'aep/respond-values-type',
    severity: 'warning',
    description:
      'In a control.attention.respond, each form value has the JSON type its field demands (the target must reject it otherwise).',
    spec: RESPOND_SPEC,
  },
  'type',
  ['respond'],
);
