import { markLocation, mayFollow } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/observation-unverifiable`: ahp/observation-leak when a line after the rejected response gave no message. */
export const observationUnverifiable = defineAhpStreamRule({
  id: 'ahp/observation-unverifiable',
  severity: 'info',
  description:
    "An observation carries a rejected response's modification, but a line after that response gave no AHP message and may have held an accepted retry that makes the edit legitimate (not verified).",
  detail:
    'A line gives no message when it is unreadable (invalid JSON, over --max-line-bytes, too deep, not an object, invalid UTF-8, a cut gzip stream) or its JSON-RPC shape is invalid (README §Decisions on unreadable lines). Only a line after the rejected response counts. It replaces ahp/observation-leak.',
  spec: 'AHP observation-disposition.md',
  messages: {
    leak: 'The observed `{member}` is what the modify of the rejected response at {response} would have produced, but {unreadable} could not be read as an AHP message and may have held an accepted retry; not verified.',
  },
  on: ['leak'],
  onEvent(facts, ctx, state) {
    const u = state.unreadable;
    for (const l of facts.event?.leak ?? []) {
      if (!u || !mayFollow(u, l.response)) return;
      const response = markLocation(l.response, '/result/effects');
      const unreadable = markLocation(u);
      ctx.report({
        pointer: `/params/event/${l.member}`,
        args: { member: l.member.replaceAll('/', '.'), response, unreadable },
        related: [unreadable, response],
      });
    }
  },
});
