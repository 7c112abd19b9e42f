import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';
import { messageKey } from '../../core/rule.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  effect:
    "The `{type}` effect was not advertised in the request's `capabilities.effects`; an unadvertised effect rejects the whole response.",
  target:
    'Target `{target}` was not advertised in `capabilities.modify`; unsupported targets must fail, not be replaced by another.',
  operation:
    'Operation `{operation}` on target `{target}` was not advertised (`capabilities.modify.{target}.{operation}` is not true); an unadvertised operation is never approximated by another.',
  flow: 'Flow operation `{operation}` was not advertised in `capabilities.flow.operations`.',
  continuations:
    'No continuation allowance is left (`capabilities.flow.remainingContinuations` is 0); an exhausted allowance rejects the whole response.',
  inject: 'Injection delivery `{deliverAt}` was not advertised in `capabilities.inject.context.deliverAt`.',
} as const;

/** Judged when the request with usable `capabilities.effects` is in the stream; an invalid effect is `ahp/effect`'s. */
export const effectNotAdvertised = defineAhpStreamRule({
  id: 'ahp/effect-not-advertised',
  severity: 'error',
  description:
    "An intercept response's effects, modify targets and operations, flow operations and injection deliveries are among those its request advertised.",
  detail: 'Also cited: base/failure.md §Failure classes; base/composition.md §Atomic effect acceptance.',
  spec: 'AHP capability-auth.md §Discovery and honest capabilities',
  messages: MESSAGES,
  on: ['effects'],
  onEvent(facts, ctx) {
    const fx = facts.effects;
    if (!fx || fx.outcome.accepted) return;
    const capabilities = markLocation(fx.request.at, '/params/capabilities');
    for (const r of fx.outcome.reasons)
      if (r.code === 'not-advertised')
        ctx.report({
          pointer: `/result/effects${r.pointer}`,
          messageId: messageKey(MESSAGES, r.messageId),
          ...(r.args ? { args: r.args } : {}),
          related: [capabilities],
        });
  },
});
