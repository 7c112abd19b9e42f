/**
 * aep/form-values-unknown-key (warning): every `values` key names a field of the form
 * (`values` is a map of `field_spec.id` to the answer; an emitter's gate drops other keys,
 * capture-gating case 6), on `attention.answered` and `control.attention.respond` alike.
 * AEP-0002 §5.3 values; AEP-0006.
 */
import { FORM_SPEC, formIssueRule } from '../analyzers/form-common.ts';

/** The `aep/form-values-unknown-key` rule, as described in the module comment above. */
export const formValuesUnknownKey = formIssueRule(
  {
    id: 'aep/form-values-unknown-key',
    severity: 'warning',
    description: 'Every form values key names a field of the form.',
    spec: FORM_SPEC,
  },
  'unknown-key',
  ['answered', 'respond'],
);
