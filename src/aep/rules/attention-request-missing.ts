/**
 * aep/attention-request-missing: an `attention.answered`, `.resolved` or `.timeout` whose
 * `subject` names no `attention.requested` of its own `(source, session)`, where the input
 * provably holds every earlier event of that session: it began in the input (`session.started`
 * or position (0, 0) first) and each event since took the next position of that epoch, so no
 * request can precede the capture or hide in a gap (session.ts `fromStart`, lifecycle.ts).
 * Otherwise (a capture starting mid-session, a gap, an epoch change, a session end, state
 * forgotten for a cap or the memory budget) aep/attention-unknown-request (info) reports it.
 * AEP-0002 §7.1; AEP-0001 §7.2-§7.4.
 */
import { defineStreamRule } from '../../core/engine.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/attention-request-missing` rule, as described in the module comment above. */
export const attentionRequestMissing = defineStreamRule({
  id: 'aep/attention-request-missing',
  severity: 'error',
  description:
    "An attention.answered, resolved or timeout names in subject no attention.requested of its session, although the input holds that session from its start (session.started or seq 0 of epoch 0 first) with no gap before it: AEP-0002 §7.1 makes subject the request's id, and the request can neither precede such a capture nor be lost in a gap. Captures that start mid-session, or with a gap, an epoch change or a session end before the follower, get aep/attention-unknown-request (info) instead, since gaps are legal (AEP-0001 §7.2).",
  spec: 'AEP-0002 §7.1; AEP-0001 §7.2-§7.4',
  on: ['attention'],
  onEvent(f: AepFacts, ctx) {
    const a = f.attention;
    if (!a?.fromStart || a.subject === undefined || a.link.status !== 'missing') return;
    ctx.report({
      pointer: '/subject',
      message: `No attention.requested with id ${JSON.stringify(a.subject)} precedes this ${f.ev.type} in its session, which the input holds from its start with no gap; subject must be the id of the request it follows.`,
    });
  },
});
