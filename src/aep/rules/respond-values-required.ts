import { RESPOND_DETAIL, respondIssueRule, RESPOND_SPEC } from '../analyzers/form-common.ts';

/** `aep/respond-values-required`. */
export const respondValuesRequired = respondIssueRule(
  {
    id: 'aep/respond-values-required',
    severity: 'warning',
    description:
      'A control.attention.respond whose form values leave a required field unanswered is reported at the command unless its target rejects it with reason invalid.',
    detail: RESPOND_DETAIL,
    spec: RESPOND_SPEC,
  },
  'required',
);
