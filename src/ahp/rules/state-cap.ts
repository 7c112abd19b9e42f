import { capReports } from '../../core/caps.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/state-cap`: sees every event, since a cap may be reached on any. */
export const stateCap = defineAhpStreamRule({
  id: 'ahp/state-cap',
  severity: 'warning',
  description:
    'A stream-state cap (--max-state-mb, the memory budget of all state, default 256 MiB; --max-pending, --max-events, count caps) was reached; later verdicts may be incomplete.',
  spec: 'agent-conformance limits (README §Options of validate)',
  messages: {
    maxPending:
      'State cap --max-pending={limit} (library: `stream: { maxPending }`) reached: further requests are not tracked, so their responses are not correlated or judged and unmatched responses are no longer reported; raise it for a complete check.',
    maxStateMb:
      'State cap --max-state-mb={limit} (library: `stream: { maxStateMb }`) reached: the oldest answered request ids, checked forms, remembered elicitation requests and events are being forgotten to keep the state within the memory budget, so retries, duplicate responses, further elicitation results and lineage naming them are reported as not verifiable or no longer recognised; raise it for a complete check.',
    maxEvents:
      'State cap --max-events={limit} (library: `stream: { maxEvents }`) reached: the oldest remembered events and answered request ids are being forgotten, so lineage, retries, elicitation pairs and duplicate responses naming them can no longer be checked; raise it for a complete check.',
  },
  onEvent(_facts, ctx, state) {
    for (const r of capReports(state.caps)) ctx.report(r);
  },
  onEnd(state, ctx) {
    for (const r of capReports(state.caps)) ctx.report(r);
  },
});
