/**
 * ahp/modify-unverifiable (info): an accepted intercept response to an elicitation result edits
 * the answer (`modify` of `content`), but the original `requestedSchema` of the request it
 * answers was already released (an earlier answer to the same request was checked and the form
 * left the grace window, elicitation.ts), so the effective answer cannot be checked against the
 * form: one finding per such modify says its form validity is not verified, never a silent pass
 * (ahp/modify-invalid reports the edits that can be judged). AHP interaction-payloads.md
 * §Elicitation modification target ("must satisfy the requesting form schema").
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The `ahp/modify-unverifiable` rule, as described in the module comment above. */
export const modifyUnverifiable = defineAhpStreamRule({
  id: 'ahp/modify-unverifiable',
  severity: 'info',
  description:
    "An accepted content modify of an elicitation answer whose request's form was already released cannot be checked against that form (its form validity is not verified).",
  spec: 'AHP interaction-payloads.md §Elicitation modification target',
  onEvent(facts, ctx) {
    const fx = facts.effects;
    if (!fx?.outcome.accepted) return;
    const released = fx.request.schemaReleased;
    if (!released) return;
    fx.list.forEach((e, i) => {
      if (!isObj(e) || e.type !== 'modify' || e.target !== 'content') return;
      ctx.report({
        pointer: `/result/effects/${i}`,
        message: `The effective answer of this modify cannot be checked against the original requested form: the form of the request (line ${released.line}) was released after an earlier answer to it was checked and then forgotten for the memory budget (--max-state-mb); its form validity is not verified.`,
        related: [markLocation(released, '/params/event/elicitation/request')],
      });
    });
  },
});
