import { markLocation, mayFollow } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/**
 * `ahp/parent-unverifiable`: ahp/elicitation-source-mismatch and ahp/parent-call-id after a line of the stream that
 * gave no message (README §Decisions on unreadable lines): the event its parentEventId names may have been on it.
 */
export const parentUnverifiable = defineAhpStreamRule({
  id: 'ahp/parent-unverifiable',
  severity: 'info',
  description:
    "An event's parentEventId names no event of its source in the input so far, after a line that gave no AHP message, which may have held that parent (not verified).",
  detail:
    'Any earlier unreadable line of the stream counts (invalid JSON, over --max-line-bytes, too deep, not an object, invalid UTF-8, a cut gzip stream, or a message whose JSON-RPC shape is invalid). It replaces the verdicts that need the parent absent: ahp/elicitation-source-mismatch (interaction-payloads.md) and ahp/parent-call-id; and ahp/elicitation-parent-missing when the line came after the request, which it may have answered. The framing finding at that line is the error.',
  spec: 'AHP task-workspace-lineage.md §Lineage and actual changes',
  messages: {
    otherSource:
      'The parent this elicitation result names is not an event of its own source in the input (a request from another source at {request} has that id), but {unreadable} could not be read as an AHP message and may have held it; not verified.',
    candidate:
      "This elicitation result has no `parentEventId`, and the request at {request} would be the one it answers, but {unreadable} could not be read as an AHP message and may have held that request's result; not verified.",
    callId:
      "This event's parentEventId equals a call id and names no event of the input so far, but {unreadable} could not be read as an AHP message and may have held an event with that id; not verified.",
  },
  on: ['pair', 'parentIsCall'],
  onEvent(facts, ctx, state) {
    if (!state.unreadable) return;
    const unreadable = markLocation(state.unreadable);
    const e = facts.event;
    const pair = e?.pair;
    const byRequest = (pointer: string, messageId: 'otherSource' | 'candidate', request: typeof unreadable) =>
      ctx.report({ pointer, messageId, args: { request, unreadable }, related: [unreadable, request] });
    if (pair?.parent === 'unknown' && pair.otherSource)
      byRequest('/params/event/parentEventId', 'otherSource', markLocation(pair.otherSource, '/params/event/source'));
    if (pair?.parent === 'absent' && pair.candidate && mayFollow(state.unreadable, pair.candidate))
      byRequest('/params/event', 'candidate', markLocation(pair.candidate, '/params/event'));
    if (e?.parentIsCall)
      ctx.report({
        pointer: '/params/event/parentEventId',
        messageId: 'callId',
        args: { unreadable },
        related: [unreadable],
      });
  },
});
