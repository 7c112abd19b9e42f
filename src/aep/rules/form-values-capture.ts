import { FORM_SPEC, formIssueRule } from '../analyzers/form-common.ts';

/** `aep/form-values-capture`. */
export const formValuesCapture = formIssueRule(
  {
    id: 'aep/form-values-capture',
    severity: 'error',
    description: 'Below capture "redacted", form values carry no free text (string-field values, other free text).',
    detail:
      "Free text is what AEP-0006 names: the value of a string field, or an `other` answer (a string that is no choice id of a select allowing other); number, boolean and closed select values are structural. A value of another type than its field takes, or a string that is none of a closed select's choice ids, is invalid rather than free text: it is reported once, as aep/form-values-type or aep/form-values-choice (aep/respond-values-type or aep/respond-values-choice in a respond), not judged again here. A down-leveling hop still drops such a value below redacted, since it cannot tell it from text.",
    spec: FORM_SPEC,
  },
  'capture',
  ['answered', 'respond'],
);
