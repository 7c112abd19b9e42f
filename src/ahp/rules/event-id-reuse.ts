/**
 * ahp/event-id-reuse (error): an event id reused by the same source for something a retry or
 * another view of the same event cannot explain. Event identity is `(source, id)` and ids are
 * unique per harness; the same event legitimately appears again as
 * - a retry of a `hooks/intercept` request, which reuses the event id, JSON-RPC id and "event
 *   contents" exactly (base/failure.md §Duplicate delivery and retries, AHP-CORE-004);
 * - its observation after settlement, which carries "the resulting effective event, with the
 *   same logical event.id and source" (observation-disposition.md), or another subscription's
 *   view of it ("Logical item identity remains stable across permission-filtered subscription
 *   views"): content may differ by accepted edits and selection, control metadata may not.
 * Reported: another event type; a re-sent intercept request whose event differs from the first
 * intercepted copy (identical means the same JSON value: member order and whitespace do not
 * count); any occurrence whose control metadata (time, parentEventId, session.id, turn.id,
 * call.id, the elicitation server, mode and action, the task id and operation and the workspace
 * kind: another task is another event) differs from the first.
 * Read from a regular file, the first intercepted copy is read back to compare; when it can no
 * longer be read as it was, ahp/event-id-unverifiable (warning) says so.
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/event-id-reuse` rule, as described in the module comment above. */
export const eventIdReuse = defineAhpStreamRule({
  id: 'ahp/event-id-reuse',
  severity: 'error',
  description:
    'An event id is reused by the same source only by an identical intercept retry or another view of the same event (same type and control metadata).',
  spec: 'AHP base/events.md §Common event fields; base/failure.md §Duplicate delivery and retries (AHP-CORE-004); observation-disposition.md',
  onEvent(facts, ctx) {
    const r = facts.event?.reuse;
    if (!r || r.kind === 'unverifiable') return;
    const fields = r.fields.filter((f) => f !== 'type');
    const differs = fields.length ? ` (${fields.join(', ')} differ${fields.length === 1 ? 's' : ''})` : '';
    const message =
      r.kind === 'type'
        ? `Event id already used by this source on line ${r.prior.line} for an event of another type; event ids are unique per harness.`
        : r.kind === 'retry'
          ? `This intercept request re-sends the event of line ${r.prior.line} with different content${differs}; a retry reuses the event id, JSON-RPC id and event contents exactly.`
          : `This event reuses the id of line ${r.prior.line} with different control metadata${differs}; a retry or another view of the same event keeps them.`;
    ctx.report({ pointer: '/params/event/id', message, related: [markLocation(r.prior, '/params/event/id')] });
  },
});
