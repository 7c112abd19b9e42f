/**
 * aep/form-values-required: `values` covers every field with `required: true` (no partial
 * answers: the MUST-reject rule). Warning on `control.attention.respond` (see
 * form-common.ts). AEP-0002 §5.3 values; AEP-0006.
 */
import { FORM_SPEC, formIssueRule } from './form-common.ts';

/** The `aep/form-values-required` rule, as described in the module comment above. */
export const formValuesRequired = formIssueRule(
  {
    id: 'aep/form-values-required',
    severity: 'error',
    description: 'Form values cover every field marked required.',
    spec: FORM_SPEC,
  },
  'required',
  'warning',
);
