import { markLocation } from '../../core/mark.ts';
import { isObj } from '../../core/value.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The message and part ids of the canonical message lists in `current` (the request's modify targets). */
function currentIds(current: Record<string, unknown> | undefined): Set<string> {
  const ids = new Set<string>();
  if (!current) return ids;
  for (const list of Object.values(current)) {
    if (!Array.isArray(list)) continue;
    for (const m of list) {
      if (!isObj(m)) continue;
      if (typeof m.id === 'string') ids.add(m.id);
      if (Array.isArray(m.parts)) for (const p of m.parts) if (isObj(p) && typeof p.id === 'string') ids.add(p.id);
    }
  }
  return ids;
}

/**
 * Read in the host context the request left for its response (analyzers/edit-context.ts): the event's current
 * model-visible list. Only a response that matches its request is judged.
 */
export const injectIdReused = defineAhpStreamRule({
  id: 'ahp/inject-id-reused',
  severity: 'error',
  description:
    "An `inject` effect's messages and parts get new item identities, not the id of an item of the intercepted event's current model-visible list.",
  detail:
    'An injected message or part whose `id` is already the id of a message or part of that list (`items`, the target list of its boundary) is an error. Ids of items the event did not carry cannot be judged.',
  spec: 'AHP execution-payloads.md §Identity and native boundary duties',
  quote: 'new injections and newly created summaries receive new item identities',
  messages: {
    reused:
      'Injected {what} id is already an item identity of the intercepted event ({request}); new injections receive new item identities.',
  },
  on: ['effects'],
  onEvent(facts, ctx) {
    const fx = facts.effects;
    if (!fx) return;
    let ids: Set<string> | undefined;
    for (let i = 0; i < fx.list.length; i++) {
      const e: unknown = fx.list[i];
      if (!isObj(e) || e.type !== 'inject' || !Array.isArray(e.value)) continue;
      ids ??= currentIds(fx.request.host?.current as Record<string, unknown> | undefined);
      if (ids.size === 0) return;
      const request = markLocation(fx.request.at, '/params/event');
      e.value.forEach((m: unknown, j: number) => {
        if (!isObj(m)) return;
        if (typeof m.id === 'string' && ids!.has(m.id))
          ctx.report({
            pointer: `/result/effects/${i}/value/${j}/id`,
            args: { what: 'message', request },
            related: [request],
          });
        if (Array.isArray(m.parts))
          m.parts.forEach((p: unknown, k: number) => {
            if (isObj(p) && typeof p.id === 'string' && ids!.has(p.id))
              ctx.report({
                pointer: `/result/effects/${i}/value/${j}/parts/${k}/id`,
                args: { what: 'part', request },
                related: [request],
              });
          });
      });
    }
  },
});
