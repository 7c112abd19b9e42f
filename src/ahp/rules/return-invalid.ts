/**
 * ahp/return-invalid (error): an advertised `return` effect supplies a value that breaks the
 * contract of the boundary it answers, so the whole response is rejected ("Unsupported effects,
 * targets, operations, invalid values ... reject the entire response"; "other replacements
 * accept arbitrary JSON subject to the target's schema").
 *
 * The contracts are one table, `effects.schema.json#/$defs/returnContracts`, one entry per event
 * whose capability bounds admit `return` ("`return` is bounded to `tool.before`,
 * `model.request.before`, `context.compact.before`, and `user.elicitation.request`"):
 * - tool.before: any JSON value (the effect schema gives `value` no shape, and no sentence gives
 *   a supplied tool result one);
 * - model.request.before: the supplied model response, a canonical message list;
 * - context.compact.before: the supplied summary (`return(summary)`), a text-part list;
 * - user.elicitation.request: the supplied MCP `ElicitResult` (pinned definition): no `content`
 *   for a URL request or a declined / cancelled answer, and an accepted form answer satisfies the
 *   request's `requestedSchema` (a missing `content` holds no required field).
 * A list value also carries content, not metadata / omit / gap views, and no attachment
 * reference other than an unchanged one of the intercepted event. The checks are those of
 * src/ahp/effects.ts, judged when the request is in the input (edit-context.ts). An unadvertised
 * `return` is ahp/effect-not-advertised's.
 *
 * AHP base/composition.md §Atomic effect acceptance; capability-auth.md §Event-semantic
 * capability bounds; execution-payloads.md §Content and accounting; interaction-payloads.md
 * §MCP elicitation binding (2025-11-25).
 */
import { markLocation } from '../../core/mark.ts';
import { RETURN_INVALID } from '../stream/ids.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/return-invalid` rule, as described in the module comment above. */
export const returnInvalid = defineAhpStreamRule({
  id: RETURN_INVALID,
  severity: 'error',
  description:
    "A return effect's value satisfies the contract of the boundary it answers (any JSON value at tool.before, messages at model.request.before, text parts at context.compact.before, an ElicitResult keeping the request's mode and form at user.elicitation.request); otherwise the whole response is rejected.",
  spec: 'AHP base/composition.md §Atomic effect acceptance; capability-auth.md §Event-semantic capability bounds',
  onEvent(facts, ctx) {
    const fx = facts.effects;
    if (!fx || fx.outcome.accepted) return;
    const request = markLocation(fx.request.at, '/params/event');
    for (const r of fx.outcome.reasons) {
      if (r.code !== 'return') continue;
      ctx.report({ pointer: `/result/effects${r.pointer}`, message: r.message, related: [request] });
    }
  },
});
