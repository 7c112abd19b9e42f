import { FORM_SPEC, formIssueRule } from '../analyzers/form-common.ts';

/** `aep/form-values-unknown-key`. */
export const formValuesUnknownKey = formIssueRule(
  {
    id: 'aep/form-values-unknown-key',
    severity: 'warning',
    description: 'Every form values key names a field of the form.',
    spec: FORM_SPEC,
  },
  'unknown-key',
  ['answered', 'respond'],
);
