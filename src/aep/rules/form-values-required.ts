/**
 * aep/form-values-required: `values` covers every field with `required: true` (no partial
 * answers). On `attention.answered`; on `control.attention.respond` it is
 * aep/respond-values-required (see form-common.ts). AEP-0002 §5.3 values; AEP-0006.
 */
import { FORM_SPEC, formIssueRule } from '../analyzers/form-common.ts';

/** The `aep/form-values-required` rule, as described in the module comment above. */
export const formValuesRequired = formIssueRule(
  {
    id: 'aep/form-values-required',
    severity: 'error',
    description: 'In an attention.answered, form values cover every field marked required.',
    spec: FORM_SPEC,
  },
  'required',
  ['answered'],
);
