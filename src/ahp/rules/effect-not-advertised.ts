/**
 * ahp/effect-not-advertised (error): an intercept response returns only what its request
 * advertised in `params.capabilities`: each effect type is in `capabilities.effects`; a
 * modify's exact target and operation are advertised (`modify.<target>.<operation>: true`,
 * never approximated by another operation); a flow operation is in `flow.operations` and a
 * continuation allowance is left; an injection's `deliverAt` is in `inject.context.deliverAt`.
 * An unadvertised effect rejects the whole response (see also ahp/modify-invalid for the
 * effects that are therefore not applied). AHP capability-auth.md §Discovery and honest
 * capabilities, §Event-semantic capability bounds; base/failure.md §Failure classes
 * ("Unadvertised ... effects"); base/composition.md §Atomic effect acceptance.
 *
 * Judged only when the request is in the stream with a usable `capabilities.effects` list
 * (a missing or malformed advertisement is reported on the request by the message checks).
 * Effects that fail the effect schema are reported by ahp/effect, not here.
 */
import { EFFECT_NOT_ADVERTISED } from '../stream/ids.ts';
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

export const effectNotAdvertised = defineAhpStreamRule({
  id: EFFECT_NOT_ADVERTISED,
  severity: 'error',
  description:
    "An intercept response's effects, modify targets and operations, flow operations and injection deliveries are among those its request advertised.",
  spec: 'AHP capability-auth.md §Discovery and honest capabilities; base/failure.md §Failure classes; base/composition.md §Atomic effect acceptance',
  onEvent(facts, ctx) {
    const fx = facts.effects;
    if (!fx || fx.outcome.accepted) return;
    for (const r of fx.outcome.reasons) {
      if (r.code !== 'not-advertised') continue;
      ctx.report({
        pointer: `/result/effects${r.pointer}`,
        message: r.message,
        related: [markLocation(fx.request.at, '/params/capabilities')],
      });
    }
  },
});
