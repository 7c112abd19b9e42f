/**
 * aep/form-values-type: each `values` entry has the JSON type its field demands: a string for
 * `string`, a number for `number`, a boolean for `boolean`, one choice id string for a
 * single `select`, an array of choice id strings for a `multi` select (a bare string is a
 * type error). On `attention.answered`; on `control.attention.respond` it is
 * aep/respond-values-type (see form-common.ts). AEP-0002 §5.3 values; AEP-0006.
 */
import { FORM_SPEC, formIssueRule } from '../analyzers/form-common.ts';

/** The `aep/form-values-type` rule, as described in the module comment above. */
export const formValuesType = formIssueRule(
  {
    id: 'aep/form-values-type',
    severity: 'error',
    description:
      'In an attention.answered, each form value has the JSON type its field demands (string, number, boolean, a choice id, or an array of choice ids when multi).',
    spec: FORM_SPEC,
  },
  'type',
  ['answered'],
);
