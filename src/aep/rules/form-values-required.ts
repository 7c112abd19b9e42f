import { FORM_SPEC, formIssueRule } from '../analyzers/form-common.ts';

/** `aep/form-values-required`. */
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
