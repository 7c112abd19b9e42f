/**
 * ahp/state-cap (warning): a documented memory cap of the stream state was reached, so later
 * verdicts may be incomplete (nothing crashes). Reported once per cap, at the message where it
 * was first exceeded:
 * - `--max-pending`: requests beyond it are not tracked, so their responses are neither matched
 *   nor judged, and a response that matches nothing is no longer reported;
 * - `--max-events`: the oldest remembered events and answered request ids are forgotten (parents,
 *   retries, elicitation pairs and duplicate responses naming them are no longer recognised),
 *   and new unresolved parents are not recorded.
 * Must be the last rule in the list, so it sees caps exceeded while any earlier rule observed
 * the message. Spec: agent-conformance limits (DESIGN.md §Principles: bounded stream state).
 */
import { capNoticeRule, type CapDescription } from '../../core/caps.ts';
import { markLocation, trackedRule, type CapName } from './tracker.ts';

const WHAT: Record<CapName, CapDescription> = {
  maxPending: { flag: '--max-pending', effect: 'further requests are not tracked, so their responses are not correlated or judged and unmatched responses are no longer reported' },
  maxEvents: { flag: '--max-events', effect: 'the oldest remembered events and answered request ids are being forgotten, so lineage, retries, elicitation pairs and duplicate responses naming them can no longer be checked' },
};

/** The `ahp/state-cap` rule, as described in the module comment above. */
export const stateCap = trackedRule(
  {
    id: 'ahp/state-cap',
    severity: 'warning',
    description: 'A stream-state cap (--max-pending, --max-events) was reached; later verdicts may be incomplete.',
    spec: 'agent-conformance limits (DESIGN.md §Principles: bounded stream state)',
  },
  (tracker) => capNoticeRule(tracker, WHAT, markLocation),
);
