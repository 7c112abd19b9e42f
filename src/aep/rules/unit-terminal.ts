import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/unit-terminal`: the units other than runs, sessions and attention requests; across all epochs. */
export const unitTerminal = defineStreamRule({
  id: 'aep/unit-terminal',
  severity: 'error',
  description:
    'A tool call, step, subagent, plan item, retrieval or (with --profile aep-0007) stream reaches at most one terminal.',
  detail:
    "The units are the paired operations of convention 1 (AEP-0007 §3 item 3 adds streams), keyed within the emitter session, all epochs: a tool call by data.tool.call_id (tool.completed, tool.failed and tool.denied exclude each other); a step by envelope step within its run (run.step.finished; a step id may restart in each run); a subagent by data.child (session, with run and agent), else subject (delegation.subagent.stopped); a plan item by data.task.id, else subject (progress.task.completed); a retrieval by its resource.retrieval.requested in the input, named by the returned event's cause; an AEP-0007 stream by subject (stream.finished). A terminal without its opening event counts (a retrieval has no key without it); one without its key is not judged. A redelivery, or another copy under the first terminal's own (source, id), is one event to a consumer that dedupes (aep/redelivery, aep/id-collision), never a second terminal.",
  spec: 'AEP-0002 §2 convention 5',
  quote:
    'A lifecycle unit reaches at most one terminal: an emitter MUST NOT emit a second terminal Event for the same unit.',
  messages: {
    tool: 'Tool call {key:json} already ended with {priorType} at {prior}; {type} is a second terminal for the same call.',
    step: 'Step {key:json} of run {run:json} already ended at {prior}; a second {type} is a second terminal for the same step.',
    stepNoRun:
      'Step {key:json} (no run) already ended at {prior}; a second {type} is a second terminal for the same step.',
    subagent:
      'Subagent {key:json} already stopped at {prior}; a second {type} is a second terminal for the same subagent.',
    task: 'Plan item {key:json} already completed at {prior}; a second {type} is a second terminal for the same item.',
    retrieval:
      'The retrieval requested by {key:json} already returned at {prior}; a second {type} is a second terminal for it.',
    stream: 'Stream {key:json} already finished at {prior}; a second {type} is a second terminal for the same stream.',
  },
  on: ['unitTerminal'],
  onEvent(f: AepFacts, ctx) {
    const t = f.unitTerminal;
    if (!t) return;
    const prior = markLocation(t.prior);
    const messageId = t.unit === 'step' ? (t.run === undefined ? 'stepNoRun' : 'step') : t.unit;
    ctx.report({
      pointer: t.pointer,
      messageId,
      args: { key: t.key, run: t.run ?? '', prior, priorType: t.priorType, type: f.ev.type },
      related: [prior],
    });
  },
});
