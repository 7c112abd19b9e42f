import { defineEventRule } from '../../core/engine.ts';
import { own } from '../../core/value.ts';
import type { AepEvent } from '../event.ts';
import { requestData } from '../form-text.ts';

/** `aep/form-fields-kind`. */
export const formFieldsKind = defineEventRule({
  id: 'aep/form-fields-kind',
  severity: 'error',
  description:
    '`fields` appears on attention.requested only with kind "form" (AEP-0006: `fields` is "present only when kind: "form"", a stated constraint of the payload, hence an error).',
  spec: 'AEP-0006; AEP-0002 §5.3',
  messages: {
    kind: '`fields` is present only when kind is "form", but kind is {kind:json}.',
    absent: '`fields` is present only when kind is "form", but kind is absent.',
  },
  types: ['attention.requested'], // requestData
  check(ev: AepEvent, ctx) {
    const d = requestData(ev);
    if (!d || !own(d, 'fields') || d.kind === 'form') return;
    const kind = typeof d.kind === 'string' ? d.kind : undefined;
    ctx.report({ pointer: '/data/fields', messageId: kind === undefined ? 'absent' : 'kind', args: { kind } });
  },
});
