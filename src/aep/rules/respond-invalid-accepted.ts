/**
 * aep/respond-invalid-accepted (error): a `control.attention.respond` whose `values` break
 * the form rules (wrong type, missing required field, non-choice string on a closed select:
 * see the form-values rules) must be rejected with `control.rejected{reason:"invalid"}` and
 * the request stays pending. Acknowledging it with `control.accepted`, or recording an
 * `attention.answered` caused by it (same session, `cause` = the command id), goes along with
 * an invalid answer. Reported once per command. An error: the target MUST reject (AEP-0002
 * §5.3 as amended by AEP-0006: "An emitter MUST reject (`control.rejected{reason:\"invalid\"}`)
 * a `control.attention.respond` whose `values` does not cover every `field_spec` with
 * `required: true`, or that carries a non-`choices[].id` string for a `select` field whose
 * `other` is absent/false"), so accepting or answering is the target's own violation, while
 * the respond itself is only reported (`aep/respond-values-*`, warnings). AEP-0004 §3.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/respond-invalid-accepted` rule, as described in the module comment above. */
export const respondInvalidAccepted = defineStreamRule({
  id: 'aep/respond-invalid-accepted',
  severity: 'error',
  description: 'A control.attention.respond with invalid form values is rejected, not accepted or answered.',
  spec: 'AEP-0002 §5.3 values; AEP-0006; AEP-0004 §3',
  on: ['endorsesInvalid'],
  onEvent(f: AepFacts, ctx) {
    if (!f.endorsesInvalid) return;
    const how = f.ev.type === 'control.accepted' ? 'accepts' : 'records an answer caused by';
    ctx.report({
      pointer: '/cause',
      message: `This ${f.ev.type} ${how} the control.attention.respond at line ${f.endorsesInvalid.line}, whose form values break the form's rules; such a command must be rejected with reason "invalid".`,
      related: [markLocation(f.endorsesInvalid, '/data/answer/values')],
    });
  },
});
