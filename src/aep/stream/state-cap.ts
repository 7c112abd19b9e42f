/**
 * aep/state-cap (warning): a documented memory cap of the stream state was reached, so later
 * verdicts may be incomplete (nothing crashes). Reported once per cap, at the event where it
 * was first exceeded:
 * - `--max-ids`: the oldest `(source, id)` digests, terminal/ack markers or ended-session
 *   entries are forgotten (collisions, redeliveries, second terminals, second acks and
 *   post-end checks against them go unseen);
 * - `--max-sessions`: the least recently active `(source, session)` state is forgotten
 *   (ordering, terminals and open requests of that session start afresh);
 * - `--max-open`: new open runs, open attention requests and pending invalid commands are
 *   not tracked (completed work does not count).
 * Must be the last rule in the list, so it sees caps exceeded by any earlier rule's event.
 */
import { capNoticeRule, type CapDescription } from '../../core/caps.ts';
import type { CapName } from './tracker.ts';
import { markLocation, trackedRule } from './tracker.ts';

const WHAT: Record<CapName, CapDescription> = {
  maxIds: { flag: '--max-ids', effect: 'the oldest (source, id) digests (or terminal, ack and ended-session markers) are being forgotten, so id collisions, redeliveries, second terminals and second acks against them can no longer be detected' },
  maxSessions: { flag: '--max-sessions', effect: 'the least recently active (source, session) state is being forgotten, so ordering, terminal and open-request checks restart for it' },
  maxOpen: { flag: '--max-open', effect: 'new open runs, attention requests and pending commands are not tracked, so checks that need them are skipped' },
};

/** The `aep/state-cap` rule, as described in the module comment above. */
export const stateCap = trackedRule(
  {
    id: 'aep/state-cap',
    severity: 'warning',
    description: 'A stream-state cap (--max-ids, --max-sessions, --max-open) was reached; later verdicts may be incomplete.',
    spec: 'agent-conformance limits (DESIGN.md §Principles: bounded stream state)',
  },
  (tracker) => capNoticeRule(tracker, WHAT, markLocation),
  { seesRedeliveries: true },
);
