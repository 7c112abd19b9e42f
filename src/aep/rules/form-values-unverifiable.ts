/**
 * aep/form-values-unverifiable (info): `values` cannot be checked because its form is not
 * available: the request is not in the stream (partial capture), the respond names a request
 * id raised by several emitters of the session, the request's payload failed its schema, or
 * the request already reached its terminal and its fields were dropped. What cannot be
 * classified is reported as "cannot verify", never passed silently: the required, type and
 * choice rules, and, below capture `redacted`, whether string entries are choice ids or free
 * text. Numbers and booleans are structural at any capture. AEP-0006; AEP-0002 §5.3.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';
import { CAPTURE_RANK } from '../event.ts';
import { FORM_SPEC, VALUES_POINTER } from '../analyzers/form-common.ts';

/** The `aep/form-values-unverifiable` rule, as described in the module comment above. */
export const formValuesUnverifiable = defineStreamRule({
  id: 'aep/form-values-unverifiable',
  severity: 'info',
  description: 'Form values whose request is not available cannot be verified (cannot verify, never a pass).',
  spec: FORM_SPEC,
  on: ['form'],
  onEvent(facts: AepFacts, ctx) {
    const f = facts.form;
    const o = f?.outcome;
    if (!f || o?.kind !== 'unverifiable') return;
    const subject = JSON.stringify(f.subject);
    const why = {
      missing: `the form request ${subject} is not in the stream${f.role === 'answered' ? ' for this source and session' : ' for this session'}`,
      ambiguous: `several emitters of this session raised a request with id ${subject}`,
      unusable: `the form request at line ${o.request?.line} failed its payload schema`,
      closed: `the form request at line ${o.request?.line} already reached its terminal and its fields are no longer held`,
    }[o.reason];
    const keys = Object.keys(f.values);
    const unclassified = keys.filter((k) => typeof f.values[k] === 'string' || Array.isArray(f.values[k])).length;
    const capture = facts.ev.capture;
    const gated = capture !== 'none' && CAPTURE_RANK[capture] < CAPTURE_RANK.redacted && unclassified > 0;
    ctx.report({
      pointer: VALUES_POINTER,
      message:
        `Cannot verify: ${why}, so the required fields, value types and choices of \`values\` (${keys.length} entr${keys.length === 1 ? 'y' : 'ies'}) cannot be checked` +
        (gated
          ? `, and ${unclassified} string or array entr${unclassified === 1 ? 'y' : 'ies'} cannot be classified as choice ids or free text at capture "${capture}".`
          : '.'),
      data: { reason: o.reason, entries: keys.length, unclassified: gated ? unclassified : 0 },
      related: o.request ? [markLocation(o.request)] : undefined,
    });
  },
});
