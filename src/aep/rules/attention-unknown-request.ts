/**
 * aep/attention-unknown-request (info): the `subject` of an attention follower names no
 * attention request seen in the stream, so its link cannot be verified. Partial captures are
 * normal (AEP-0001 §7.4: bare-id references resolve within one session's view), so this is
 * "cannot verify", never an error.
 *
 * Where the request is looked for: `attention.answered`, `.resolved`, `.timeout` in the same
 * `(source, session)` (the emitter answers and closes its own requests);
 * `attention.routed` and `control.attention.respond` (foreign emitters) in any source's
 * session of that name. Where the input provably holds the emitter session from its start,
 * aep/attention-request-missing (error) reports the follower instead. AEP-0002 §7.1; AEP-0004 §6.
 */
import { defineStreamRule } from '../../core/engine.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/attention-unknown-request` rule, as described in the module comment above. */
export const attentionUnknownRequest = defineStreamRule({
  id: 'aep/attention-unknown-request',
  severity: 'info',
  description:
    'The attention request named by subject is not in the stream, so the link cannot be verified (the capture may start after the request, or lose it in a gap).',
  spec: 'AEP-0002 §7.1; AEP-0001 §7.4',
  on: ['attention'],
  onEvent(f: AepFacts, ctx) {
    const a = f.attention;
    if (!a || a.subject === undefined || a.link.status !== 'missing' || a.fromStart) return;
    const where =
      f.ev.type === 'attention.routed' || f.ev.type === 'control.attention.respond' ? 'session' : 'source and session';
    ctx.report({
      pointer: '/subject',
      message: `Cannot verify: no attention.requested with id ${JSON.stringify(a.subject)} was seen in this ${where} (the request may precede the capture).`,
    });
  },
});
