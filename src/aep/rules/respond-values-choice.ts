import { formIssueRule, RESPOND_SPEC } from '../analyzers/form-common.ts';

/** `aep/respond-values-choice`. */
export const respondValuesChoice = formIssueRule(
  {
    id: 'aep/respond-values-choice',
    severity: 'warning',
    description:
      'In a control.attention.respond, a select value is one of its choice ids unless the field allows other free text (the target must reject it otherwise).',
    spec: RESPOND_SPEC,
  },
  'choice',
  ['respond'],
);
