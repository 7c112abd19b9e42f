import { FORM_SPEC, formIssueRule } from '../analyzers/form-common.ts';

/** `aep/form-values-choice`. */
export const formValuesChoice = formIssueRule(
  {
    id: 'aep/form-values-choice',
    severity: 'error',
    description:
      'In an attention.answered, a select value is one of its choice ids, unless the field allows other free text.',
    spec: FORM_SPEC,
  },
  'choice',
  ['answered'],
);
