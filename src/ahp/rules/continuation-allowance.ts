import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/continuation-allowance`: within one advertisement; against the manifest it is `ahp/advertisement-exceeds-manifest`. */
export const continuationAllowance = defineAhpStreamRule({
  id: 'ahp/continuation-allowance',
  severity: 'error',
  description:
    "An intercept request's `capabilities.flow.remainingContinuations` is at most the same block's `maxContinuations`: the static maximum and the dynamic allowance are enforceable runtime commitments.",
  detail: 'Also cited: base/composition.md §Atomic effect acceptance.',
  spec: 'AHP capability-auth.md §Event-semantic capability bounds',
  quote: 'the static maximum and dynamic allowance are enforceable runtime commitments',
  messages: {
    above:
      'This request leaves {remaining} continuations, above its own static maximum `maxContinuations` of {max}; the dynamic allowance stays within the static maximum.',
  },
  on: ['advertisement'],
  onEvent(facts, ctx) {
    const a = facts.advertisement?.allowance;
    if (a)
      ctx.report({
        pointer: '/params/capabilities/flow/remainingContinuations',
        args: { remaining: a.remaining, max: a.max },
      });
  },
});
