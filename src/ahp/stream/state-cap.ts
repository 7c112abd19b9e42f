/**
 * ahp/state-cap (warning): a documented memory cap of the stream state was reached, so later
 * verdicts may be incomplete (nothing crashes). Reported once per cap, at the message where it
 * was first exceeded, from the run's cap log (budget.ts):
 * - `--max-pending` (correlation.ts): requests beyond it are not tracked, so their responses are
 *   neither matched nor judged, and a response that matches nothing is no longer reported;
 * - `--max-events` (identity.ts, correlation.ts, lineage.ts): the oldest remembered events and
 *   answered request ids are forgotten (parents, retries, elicitation pairs and duplicate
 *   responses naming them are no longer recognised), and new unresolved parents are not recorded.
 * Last in the rule list, so its finding follows the other findings of the message.
 */
import { CAP_MESSAGES, reportCapNotices, type CapDescription } from '../../core/caps.ts';
import type { RuleContext } from '../../core/rule.ts';
import { markLocation } from '../../core/mark.ts';
import type { CapName } from './budget.ts';
import { defineAhpStreamRule, type AhpStreamState } from './model.ts';

const WHAT: Record<CapName, CapDescription> = {
  maxPending: {
    flag: '--max-pending',
    effect:
      'further requests are not tracked, so their responses are not correlated or judged and unmatched responses are no longer reported',
  },
  maxStateMb: {
    flag: '--max-state-mb',
    effect:
      'the oldest answered request ids, checked forms, remembered elicitation requests and events are being forgotten to keep the state within the memory budget, so retries, duplicate responses, further elicitation results and lineage naming them are reported as not verifiable or no longer recognised',
  },
  maxEvents: {
    flag: '--max-events',
    effect:
      'the oldest remembered events and answered request ids are being forgotten, so lineage, retries, elicitation pairs and duplicate responses naming them can no longer be checked',
  },
};

/** Report the caps noted since the last call. */
function flush(state: AhpStreamState, ctx: RuleContext): void {
  const notices = state.caps.take();
  if (notices.length)
    reportCapNotices(
      notices.map((n) => ({ cap: n.cap, limit: n.limit, at: markLocation(n.at) })),
      WHAT,
      ctx,
    );
}

/** The `ahp/state-cap` rule, as described in the module comment above. */
export const stateCap = defineAhpStreamRule({
  id: 'ahp/state-cap',
  severity: 'warning',
  description:
    'A stream-state cap (--max-state-mb, the memory budget of all state, default 256 MiB; --max-pending, --max-events, count caps) was reached; later verdicts may be incomplete.',
  spec: 'agent-conformance limits (README §Options of validate)',
  messages: CAP_MESSAGES,
  onEvent(_facts, ctx, state) {
    flush(state, ctx);
  },
  onEnd(state, ctx) {
    flush(state, ctx);
  },
});
