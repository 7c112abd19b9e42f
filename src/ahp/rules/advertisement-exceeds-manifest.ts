import { markLocation, mayFollow } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/**
 * `ahp/advertisement-exceeds-manifest`: judged against the last capabilities manifest before the request in the input;
 * elicitation modes are `ahp/elicitation-mode-not-advertised`'s.
 */
export const advertisementExceedsManifest = defineAhpStreamRule({
  id: 'ahp/advertisement-exceeds-manifest',
  severity: 'error',
  description: "An intercept request's `capabilities` narrow the capabilities manifest of the input.",
  detail:
    'Its event has a manifest entry with the `intercept` mode (observation coverage never creates interception support; omitted coverage is not universal support), and its effects, modify operations, flow operations, injection deliveries and continuation allowance are among the entry\'s and within the manifest\'s `limits.maxContinuations`. Also cited: the same section ("MUST NOT interpret omitted coverage as universal support"), §Event-semantic capability bounds, §Coverage and deliberate exclusions ("Synthesized observation coverage does not create interception support").',
  spec: 'AHP capability-auth.md §Discovery and honest capabilities',
  quote: 'Per-request advertisements MUST narrow manifest capabilities',
  messages: {
    uncovered:
      'This request intercepts `{type}`, which the capabilities manifest at {manifest} does not list; omitted coverage is not universal support.',
    observeOnly:
      'This request intercepts `{type}`, which the capabilities manifest at {manifest} lists for observation only; observation coverage does not create interception support.',
    effect:
      'This request advertises the `{effect}` effect for `{type}`, which the capabilities manifest at {manifest} does not grant; per-request advertisements narrow the manifest.',
    operation:
      'This request advertises `{operation}` on target `{target}` for `{type}`, which the capabilities manifest at {manifest} does not grant; per-request advertisements narrow the manifest.',
    flow: 'This request advertises flow operation `{operation}` for `{type}`, which the capabilities manifest at {manifest} does not grant; per-request advertisements narrow the manifest.',
    inject:
      'This request advertises injection delivery `{deliverAt}` for `{type}`, which the capabilities manifest at {manifest} does not grant; per-request advertisements narrow the manifest.',
    manifestMaximum:
      'This request leaves {remaining} continuations, above the static maximum of {max} in the capabilities manifest at {manifest}; the dynamic allowance stays within it.',
  },
  on: ['advertisement'],
  onEvent(facts, ctx, state) {
    const a = facts.advertisement;
    if (!a || a.manifest === undefined) return;
    // a line after the manifest that gave no message may have held a newer one: ahp/manifest-unverifiable
    if (state.unreadable && mayFollow(state.unreadable, a.manifest)) return;
    const manifest = markLocation(a.manifest);
    for (const i of a.issues)
      ctx.report({
        pointer: i.pointer === '' ? '/params/event/type' : `/params/capabilities${i.pointer}`,
        messageId: i.messageId,
        args: { ...i.args, manifest },
        related: [manifest],
      });
  },
});
