import { formIssueRule, RESPOND_SPEC } from '../analyzers/form-common.ts';

/** `aep/respond-values-type`. */
export const respondValuesType = formIssueRule(
  {
    id: 'aep/respond-values-type',
    severity: 'warning',
    description:
      'In a control.attention.respond, each form value has the JSON type its field demands (the target must reject it otherwise).',
    spec: RESPOND_SPEC,
  },
  'type',
  ['respond'],
);
