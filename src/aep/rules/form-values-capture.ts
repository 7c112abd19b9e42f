import { FORM_SPEC, formIssueRule } from '../analyzers/form-common.ts';

/** `aep/form-values-capture`. */
export const formValuesCapture = formIssueRule(
  {
    id: 'aep/form-values-capture',
    severity: 'error',
    description: 'Below capture "redacted", form values carry no free text (string-field values, other free text).',
    spec: FORM_SPEC,
  },
  'capture',
  ['answered', 'respond'],
);
