import { formIssueRule, RESPOND_SPEC } from '../analyzers/form-common.ts';

/** `aep/respond-values-required`. */
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
