import { RESPOND_DETAIL, respondIssueRule, RESPOND_SPEC } from '../analyzers/form-common.ts';

/** `aep/respond-values-type`. */
export const respondValuesType = respondIssueRule(
  {
    id: 'aep/respond-values-type',
    severity: 'warning',
    description:
      'A control.attention.respond whose form value has another JSON type than its field takes is reported at the command unless its target rejects it with reason invalid.',
    detail: RESPOND_DETAIL,
    spec: RESPOND_SPEC,
  },
  'type',
);
