/**
 * aep/form-values-capture: below capture `redacted`, `values` carries no free text: a
 * `string` field's value and an `other` free-text select value are user-authored text
 * (`redacted` minimum, like `answer.text`), and so is a string answering a number or boolean
 * field. Numbers, booleans and closed choice ids are structural and fine at
 * `metadata`. Not checked at `none` (aep/capture-none reports the whole payload). Messages
 * give the value's type and length, never the value.
 * On `attention.answered` and `control.attention.respond` alike.
 * AEP-0002 §5.3 values (gated by exception, type-dependent); AEP-0006 §Security.
 */
import { FORM_SPEC, formIssueRule } from '../analyzers/form-common.ts';

/** The `aep/form-values-capture` rule, as described in the module comment above. */
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
