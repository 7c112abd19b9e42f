import { RESPOND_DETAIL, respondIssueRule, RESPOND_SPEC } from '../analyzers/form-common.ts';

/** `aep/respond-values-choice`. */
export const respondValuesChoice = respondIssueRule(
  {
    id: 'aep/respond-values-choice',
    severity: 'warning',
    description:
      'A control.attention.respond answering a select field without `other` by a string that is no choice id is reported at the command unless its target rejects it with reason invalid.',
    detail: RESPOND_DETAIL,
    spec: RESPOND_SPEC,
  },
  'choice',
);
