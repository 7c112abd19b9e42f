import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import { FORM_SPEC } from '../analyzers/form-common.ts';
import { VALUES_POINTER } from '../analyzers/form-values.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/form-values-not-form`. */
export const formValuesNotForm = defineStreamRule({
  id: 'aep/form-values-not-form',
  severity: 'error',
  description:
    'Form values answer only a kind "form" request (AEP-0006: `values` "is present only answering a kind: "form" request"; decided only when the request answered is in the input).',
  spec: FORM_SPEC,
  messages: {
    kind: '`values` answers the attention request at {request}, whose kind is {kind:json}; `values` is present only when answering a kind "form" request.',
    missing:
      '`values` answers the attention request at {request}, whose kind is missing; `values` is present only when answering a kind "form" request.',
  },
  on: ['form'],
  onEvent(f: AepFacts, ctx) {
    const o = f.form?.outcome;
    if (o?.kind !== 'not-form') return;
    const request = markLocation(o.request, '/data/kind');
    ctx.report({
      pointer: VALUES_POINTER,
      messageId: o.requestKind === undefined ? 'missing' : 'kind',
      args: { request, kind: o.requestKind },
      related: [request],
    });
  },
});
