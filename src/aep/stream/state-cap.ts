/**
 * aep/state-cap (warning): a documented memory cap of the stream state was reached, so later
 * verdicts may be incomplete (nothing crashes). Reported once per cap, at the event where it
 * was first exceeded, from the run's {@link AepCapLog} (budget.ts), where every analyzer notes
 * its caps:
 * - `--max-ids`: the oldest `(source, id)` digests, terminal/ack markers or ended-session
 *   entries are forgotten (collisions, redeliveries, second terminals, second acks and
 *   post-end checks against them go unseen);
 * - `--max-sessions`: the least recently active `(source, session)` state is forgotten
 *   (ordering, terminals and open requests of that session start afresh);
 * - `--max-open`: new open runs, open attention requests and pending commands are not
 *   tracked (completed work does not count).
 * Last in the rule list, so its findings follow the event's other findings.
 */
import { CAP_MESSAGES, reportCapNotices, type CapDescription } from '../../core/caps.ts';
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { RuleContext } from '../../core/rule.ts';
import type { AepCapLog, AepCapName } from './budget.ts';
import type { AepStreamState } from './model.ts';

const WHAT: Record<AepCapName, CapDescription> = {
  maxStateMb: {
    flag: '--max-state-mb',
    effect:
      'the oldest terminal, ack and ended-session markers and (source, id) digests are being forgotten to keep the state within the memory budget, so id collisions, redeliveries, second terminals and second acks against them can no longer be detected',
  },
  maxIds: {
    flag: '--max-ids',
    effect:
      'the oldest (source, id) digests (or terminal, ack and ended-session markers) are being forgotten, so id collisions, redeliveries, second terminals and second acks against them can no longer be detected',
  },
  maxSessions: {
    flag: '--max-sessions',
    effect:
      'the least recently active (source, session) state is being forgotten, so ordering, terminal and open-request checks restart for it',
  },
  maxOpen: {
    flag: '--max-open',
    effect:
      'new open runs, attention requests and pending commands are not tracked, so checks that need them are skipped',
  },
};

/** Report the caps noted since the last call. */
function flush(caps: AepCapLog, ctx: RuleContext): void {
  const notices = caps.take();
  if (notices.length)
    reportCapNotices(
      notices.map((n) => ({ cap: n.cap, limit: n.limit, at: markLocation(n.at) })),
      WHAT,
      ctx,
    );
}

/** The `aep/state-cap` rule, as described in the module comment above. */
export const stateCap = defineStreamRule({
  id: 'aep/state-cap',
  severity: 'warning',
  description:
    'A stream-state cap (--max-state-mb, the memory budget of all state, default 256 MiB; --max-ids, --max-sessions, --max-open, count caps) was reached; later verdicts may be incomplete.',
  spec: 'agent-conformance limits (README §Options of validate)',
  messages: CAP_MESSAGES,
  onEvent(_f: unknown, ctx, state: AepStreamState) {
    flush(state.caps, ctx);
  },
  onEnd(state: AepStreamState, ctx) {
    flush(state.caps, ctx);
  },
});
