/**
 * aep/form-values-not-form (warning): `values` is present only when answering a
 * `kind: "form"` request; here the linked request has another kind. AEP-0002 §5.3 values;
 * AEP-0006.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';
import { FORM_SPEC, VALUES_POINTER } from '../analyzers/form-common.ts';

/** The `aep/form-values-not-form` rule, as described in the module comment above. */
export const formValuesNotForm = defineStreamRule({
  id: 'aep/form-values-not-form',
  severity: 'warning',
  description: 'Form values answer only a kind "form" request.',
  spec: FORM_SPEC,
  on: ['form'],
  onEvent(f: AepFacts, ctx) {
    const o = f.form?.outcome;
    if (o?.kind !== 'not-form') return;
    ctx.report({
      pointer: VALUES_POINTER,
      message: `\`values\` answers the attention request at line ${o.request.line}, whose kind is ${o.requestKind === undefined ? 'missing' : JSON.stringify(o.requestKind)}; \`values\` is present only when answering a kind "form" request.`,
      related: [markLocation(o.request, '/data/kind')],
    });
  },
});
