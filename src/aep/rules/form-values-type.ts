import { FORM_SPEC, formIssueRule } from '../analyzers/form-common.ts';

/** `aep/form-values-type`. */
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
