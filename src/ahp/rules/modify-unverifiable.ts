import { markLocation } from '../../core/mark.ts';
import { isObj } from '../../core/value.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The form left the state after an earlier answer was checked: said once per modify, never a silent pass. */
export const modifyUnverifiable = defineAhpStreamRule({
  id: 'ahp/modify-unverifiable',
  severity: 'info',
  description:
    "An accepted content modify of an elicitation answer whose request's form was already released cannot be checked against that form (its form validity is not verified).",
  spec: 'AHP interaction-payloads.md §Elicitation modification target',
  messages: {
    released:
      'The effective answer of this modify cannot be checked against the original requested form: the form of the request ({request}) was released after an earlier answer to it was checked and then forgotten for the memory budget (`--max-state-mb`; library: `stream: { maxStateMb }`); its form validity is not verified.',
  },
  on: ['effects'],
  onEvent(facts, ctx) {
    const fx = facts.effects;
    const released = fx?.outcome.accepted ? fx.request.schemaReleased : undefined;
    if (!fx || !released) return;
    const request = markLocation(released, '/params/event/elicitation/request');
    fx.list.forEach((e, i) => {
      if (isObj(e) && e.type === 'modify' && e.target === 'content')
        ctx.report({ pointer: `/result/effects/${i}`, args: { request }, related: [request] });
    });
  },
});
