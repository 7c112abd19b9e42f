/**
 * aep/form-values-choice: a select value (or each item of a multi select) is one of the
 * field's `choices[].id`; a string that is not a choice id is allowed only as free text on a
 * field with `other: true`. On `attention.answered`; on `control.attention.respond` it is
 * aep/respond-values-choice (see form-common.ts). AEP-0002 §5.3 values; AEP-0006.
 */
import { FORM_SPEC, formIssueRule } from '../analyzers/form-common.ts';

/** The `aep/form-values-choice` rule, as described in the module comment above. */
export const formValuesChoice = formIssueRule(
  {
    id: 'aep/form-values-choice',
    severity: 'error',
    description:
      'In an attention.answered, a select value is one of its choice ids, unless the field allows other free text.',
    spec: FORM_SPEC,
  },
  'choice',
  ['answered'],
);
