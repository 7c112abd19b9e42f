import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/**
 * A repeat of the same event `(source, id)` (a delivery retry, another subscription view, the observation after
 * interception) is no second boundary: analyzers/occurrences.ts reads first occurrences only.
 */
export const callBoundaryDuplicate = defineAhpStreamRule({
  id: 'ahp/call-boundary-duplicate',
  severity: 'error',
  description:
    'One call has one `tool.after`, one batch one `tool.batch.after`: a second such event (another event `id`, same `source`) for the same `call.id` or `batch.id` is an error.',
  detail:
    'One `tool.after` represents a resolved call, and an observation or a retry of an event keeps its `id`, so a repeat under the same id is not counted. `tool.batch.after` is the aggregate boundary of its calls and is not a repeat of their `tool.after`; it is "one aggregate boundary" of its batch, so a second one for the same `batch.id` is (when its calls resolve is not on the wire, so its place is not judged). Within one `tool.batch.after`, two `calls` entries with the same `call.id` resolve one call twice in one boundary: this error at the second entry. Whether `calls` and `batch.callIds` name the same calls is not judged: "batch membership ... [is a] runtime [duty], not [a conclusion] derived from validating individual messages" (same document), and no sentence makes the two lists equal. A second `tool.before` for a call is not judged: no sentence makes the before boundary once per call (the protocol repository interop scenarios, too, send many `tool.before` events, each its own event id, for one call id). A boundary whose `session.id` differs from that of another (both present) belongs to another call, and the session is part of the key (a repeat in a later session is judged against the boundary of that session): no sentence makes a call id unique across sessions; a boundary without a session pairs with the call under any session. Also cited: the same section ("Calls retain identity across before, permission, progress and completion"); observation-disposition.md (the observation carries the effective event "with the same logical `event.id` and `source`").',
  spec: 'AHP execution-payloads.md §Identity and native boundary duties',
  quote: 'One `tool.after` represents a resolved call ... `tool.batch.after` is one aggregate boundary',
  messages: {
    after:
      'A second `tool.after` for this call (the first, another event, at {prior}); one `tool.after` represents a resolved call, and a retry or an observation keeps the event id.',
    batchCall:
      'This `calls` entry resolves the call that entry {entry} of the same tool.batch.after already resolves; the batch boundary comes after its calls resolve, each once (one completion per call).',
    batch:
      'A second `tool.batch.after` for this batch (the first, another event, at {prior}); it is one aggregate boundary, and a retry or an observation keeps the event id.',
  },
  on: ['occurrence'],
  onEvent(facts, ctx) {
    const o = facts.event?.occurrence;
    if (!o || (o.kind !== 'tool.after' && o.kind !== 'tool.batch.after' && o.kind !== 'batch-call')) return;
    const prior = markLocation(o.prior, '/params/event');
    if (o.kind === 'batch-call') {
      ctx.report({ pointer: `/params/event${o.member}`, messageId: 'batchCall', args: { entry: o.entry ?? 0 } });
      return;
    }
    ctx.report({
      pointer: `/params/event${o.member}`,
      messageId: o.kind === 'tool.after' ? 'after' : 'batch',
      args: { prior },
      related: [prior],
    });
  },
});
