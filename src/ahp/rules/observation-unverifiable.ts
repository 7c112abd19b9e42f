import { type Mark, markLocation, mayFollow } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/observation-unverifiable`: ahp/observation-leak when a line after the rejected response gave no message. */
export const observationUnverifiable = defineAhpStreamRule({
  id: 'ahp/observation-unverifiable',
  severity: 'info',
  description:
    'An observation carries a rejected modification after an unreadable line that may have held an accepted retry, or the intercepted value an accepted modification changed (not verified).',
  detail:
    'A line gives no message when it is unreadable (invalid JSON, over --max-line-bytes, too deep, not an object, invalid UTF-8, a cut gzip stream) or its JSON-RPC shape is invalid (README §Decisions on unreadable lines). Only a line after the rejected response counts. It replaces ahp/observation-leak. An observation whose modified member is the intercepted value itself, after an accepted response to the same event changed it, does not show "the resulting effective event" (observation-disposition.md) unless an interceptor after this one set it back, which the input does not show (interceptors run in order, each on the previous effective value: base/composition.md §Interceptor order), so it is this info, not an error; any other difference may be a projection (content selection) or a later edit and is not judged.',
  spec: 'AHP observation-disposition.md',
  messages: {
    late: "The observed `{member}` is what the modify of the response at {response} produced, but that response came after a `hook.failure` naming the event and is ignored (base/failure.md §Deadlines), unless that failure was another backend's; not verified.",
    unreflected:
      'The observed `{member}` is the intercepted value, but the accepted response at {response} changed it: the observation shows the resulting effective event, unless a later interceptor set it back (not verified).',
    leak: 'The observed `{member}` is what the modify of the rejected response at {response} would have produced, but {unreadable} could not be read as an AHP message and may have held an accepted retry; not verified.',
  },
  on: ['leak', 'unreflected'],
  onEvent(facts, ctx, state) {
    // one finding at the observed member, linked to the response whose effects it is judged by
    const at = (
      l: { member: string; response: Mark },
      messageId: 'late' | 'unreflected' | 'leak',
      unreadable?: ReturnType<typeof markLocation>,
    ) => {
      const response = markLocation(l.response, '/result/effects');
      ctx.report({
        pointer: `/params/event/${l.member}`,
        messageId,
        args: { member: l.member.replaceAll('/', '.'), response, ...(unreadable ? { unreadable } : {}) },
        related: unreadable ? [unreadable, response] : [response],
      });
    };
    for (const l of facts.event?.unreflected ?? []) at(l, 'unreflected');
    const u = state.unreadable;
    for (const l of facts.event?.leak ?? []) {
      if (l.late) {
        at(l, 'late');
        continue;
      }
      if (!u || !mayFollow(u, l.response)) return;
      at(l, 'leak', markLocation(u));
    }
  },
});
