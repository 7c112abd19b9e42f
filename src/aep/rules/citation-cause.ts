import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';

const TYPES = ['resource.citation.recorded'] as const;

/** `aep/citation-cause`. A SHOULD, hence a warning; which event `cause` names is not judged (golden names a retrieval). */
export const citationCause = defineEventRule({
  id: 'aep/citation-cause',
  severity: 'warning',
  description:
    "A resource.citation.recorded names the produced answer it attributes in cause (AEP-0002 §5.4: the produced event SHOULD be the envelope's cause).",
  spec: 'AEP-0002 §5.4',
  messages: {
    missing:
      'This resource.citation.recorded has no `cause`; a citation should name the produced answer it attributes (e.g. the run.finished) in cause.',
  },
  types: TYPES,
  check(ev: AepEvent, ctx) {
    if (ev.untrusted?.has('cause')) return;
    if (ev.type !== TYPES[0] || typeof ev.value.cause === 'string') return;
    ctx.report({ pointer: '/cause', args: {} });
  },
});
