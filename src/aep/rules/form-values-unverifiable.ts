import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import { FORM_SPEC } from '../analyzers/form-common.ts';
import { VALUES_POINTER } from '../analyzers/form-values.ts';
import type { AepFacts } from '../analyzers/model.ts';
import { CAPTURE_RANK } from '../event.ts';

const WHY = {
  'missing-answered': 'the form request {subject:json} is not in the stream for this source and session',
  'missing-respond': 'the form request {subject:json} is not in the stream for this session',
  ambiguous: 'several emitters of this session raised a request with id {subject:json}',
  unusable: 'the form request at {request} failed its payload schema',
  closed: 'the form request at {request} already reached its terminal and its fields are no longer held',
  'closed-kind':
    'the attention request at {request} already reached its terminal and its kind, outside the registry, is no longer held',
  withheld:
    'the attention request at {request} carries no payload at capture "none", so its kind and fields are unknown',
} as const;

const UNCHECKED =
  'so the required fields, value types and choices of `values` ({entries} key{entries:s}) cannot be checked';
const UNCLASSIFIED =
  '{unclassified} string or array value{unclassified:s} cannot be classified as choice ids or free text at capture {capture:json}';

/**
 * "Cannot verify": below `redacted` string and array entries are choice ids or free text, undecidable without the form.
 */
export const formValuesUnverifiable = defineStreamRule({
  id: 'aep/form-values-unverifiable',
  severity: 'info',
  description: 'Form values whose request is not available cannot be verified (cannot verify, never a pass).',
  detail:
    'Not in the stream, ambiguous, failing its schema, closed, or at capture none with its payload withheld (a down-leveling hop or an OTLP exporter at its ceiling leaves the kind unknown, not missing: AEP-0001 §8.2, AEP-0005 §3.3).',
  spec: FORM_SPEC,
  messages: Object.fromEntries(
    Object.entries(WHY).flatMap(([key, why]) => [
      [key, `Cannot verify: ${why}, ${UNCHECKED}.`],
      [`${key}-gated`, `Cannot verify: ${why}, ${UNCHECKED}, and ${UNCLASSIFIED}.`],
    ]),
  ),
  on: ['form'],
  onEvent(facts: AepFacts, ctx) {
    const f = facts.form;
    const o = f?.outcome;
    if (!f || o?.kind !== 'unverifiable') return;
    const keys = Object.keys(f.values);
    const unclassified = keys.filter((k) => typeof f.values[k] === 'string' || Array.isArray(f.values[k])).length;
    const capture = facts.ev.capture;
    const gated = capture !== 'none' && CAPTURE_RANK[capture] < CAPTURE_RANK.redacted && unclassified > 0;
    const why = o.reason === 'missing' ? `missing-${f.role}` : o.reason;
    const request = o.request ? markLocation(o.request) : undefined;
    ctx.report({
      pointer: VALUES_POINTER,
      messageId: gated ? `${why}-gated` : why,
      args: {
        reason: o.reason,
        subject: f.subject,
        request,
        entries: keys.length,
        unclassified: gated ? unclassified : 0,
        capture,
      },
      related: request ? [request] : undefined,
    });
  },
});
