import { defineStreamRule } from '../../core/engine.ts';
import { capReports } from '../../core/caps.ts';
import type { AepStreamState } from '../analyzers/model.ts';

/** `aep/state-cap`: last in the rule list, so its findings follow the event's others. */
export const stateCap = defineStreamRule({
  id: 'aep/state-cap',
  severity: 'warning',
  description:
    'A stream-state cap (--max-state-mb, the memory budget of all state, default 256 MiB; --max-ids, --max-sessions, --max-open, count caps) was reached; later verdicts may be incomplete.',
  spec: 'agent-conformance limits (README §Options of validate)',
  messages: {
    maxStateMb:
      'State cap --max-state-mb={limit} (library: `stream: { maxStateMb }`) reached: the oldest terminal, ack and ended-session markers and (source, id) digests are being forgotten to keep the state within the memory budget, so id collisions, redeliveries, second terminals and second acks against them can no longer be detected; raise it for a complete check.',
    maxIds:
      'State cap --max-ids={limit} (library: `stream: { maxIds }`) reached: the oldest (source, id) digests (or terminal, ack and ended-session markers) are being forgotten, so id collisions, redeliveries, second terminals and second acks against them can no longer be detected; raise it for a complete check.',
    maxSessions:
      'State cap --max-sessions={limit} (library: `stream: { maxSessions }`) reached: the least recently active (source, session) state is being forgotten, so ordering, terminal and open-request checks restart for it; raise it for a complete check.',
    maxOpen:
      'State cap --max-open={limit} (library: `stream: { maxOpen }`) reached: new open runs, attention requests and pending commands are not tracked, so checks that need them are skipped; raise it for a complete check.',
  },
  onEvent(_f: unknown, ctx, state: AepStreamState) {
    for (const r of capReports(state.caps)) ctx.report(r);
  },
  onEnd(state: AepStreamState, ctx) {
    for (const r of capReports(state.caps)) ctx.report(r);
  },
});
