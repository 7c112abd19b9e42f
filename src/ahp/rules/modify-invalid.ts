/**
 * ahp/modify-invalid (error): a response's `modify` effects must be applicable to the pending
 * event, and the response is accepted or rejected as a whole.
 *
 * In context (the request is in the stream): at `user.elicitation.result` the `content` target
 * is the parsed MCP answer object of an accepted form result (a list, a URL / declined /
 * cancelled result, or a metadata / omit / gap view cannot be edited); both replace and merge
 * take an object, merge is shallow, and the effective answer must keep the MCP answer shape and
 * satisfy the original `requestedSchema` when the request is known. At `user.message.outbound`
 * `content` is an assistant message list (an object is rejected). Inbound `prompt` messages keep
 * role user; `input`/`workspace` merges need an object, and the effective workspace state at
 * workspace.change.before keeps its closed schema (`cwd` a path string, `workspaceRoots` a
 * string list); a whole-list replacement over hidden (metadata / omit / gap) text and a
 * substituted attachment body are rejected at every list target (turn.start prompt,
 * model.request.before request, model.response.after and turn.finish.before response,
 * tool.after output, context.compact.before instructions, context.compact.after summary,
 * inbound prompt, outbound content; conformance profile base §Canonical content and edit
 * checks 3 and 6). The checks are
 * those of {@link applyEffects} (src/ahp/effects.ts). When the request's form was already released
 * (an earlier answer to the same request was checked, see elicitation.ts), an accepted content
 * edit is reported by ahp/modify-unverifiable (info) instead of passing silently.
 *
 * Atomicity: when the response is rejected for any reason (an effect failing its schema, an
 * unadvertised effect, a modify problem), each `modify` that is fine on its own is reported as
 * not applied, with the effects that caused the rejection as related locations: "any invalid
 * effect rejects the entire response ... do not salvage even a valid deny".
 *
 * AHP interaction-payloads.md §Elicitation modification target; base/composition.md §Atomic
 * effect acceptance; conformance profile base §Canonical content and edit checks;
 * execution-payloads.md §Content and accounting.
 */
import type { Location } from '../../core/finding.ts';
import { eventLocation } from '../../core/rule.ts';
import { MODIFY_INVALID } from '../stream/ids.ts';
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The `ahp/modify-invalid` rule, as described in the module comment above. */
export const modifyInvalid = defineAhpStreamRule({
  id: MODIFY_INVALID,
  severity: 'error',
  description:
    "A response's modify effects fit the pending event (elicitation answer object of an accepted form, outbound message list, effective answer valid for the original form), and a response with any invalid effect is rejected as a whole.",
  spec: 'AHP interaction-payloads.md §Elicitation modification target; base/composition.md §Atomic effect acceptance',
  onEvent(facts, ctx) {
    const fx = facts.effects;
    if (!fx) return;
    if (fx.outcome.accepted) return;
    const reasons = fx.outcome.reasons;
    const request = markLocation(fx.request.at, '/params/event');
    for (const r of reasons) {
      if (r.code === 'malformed' || r.code === 'not-advertised' || r.code === 'return') continue;
      ctx.report({ pointer: `/result/effects${r.pointer}`, message: r.message, related: [request] });
    }
    // atomic rejection: modifies without a problem of their own are not applied either
    const which = [...new Set(reasons.map((r) => r.index))].filter((i) => i >= 0).sort((a, b) => a - b);
    const causes: Location[] = which.map((i) => eventLocation(facts.msg, `/result/effects/${i}`));
    const bad = new Set(which);
    fx.list.forEach((e, i) => {
      if (bad.has(i) || !isObj(e) || e.type !== 'modify') return;
      const list = which.map((k) => `/result/effects/${k}`).join(', ');
      ctx.report({
        pointer: `/result/effects/${i}`,
        message: `This modify is not applied: the response is rejected as a whole because of the invalid effect${which.length === 1 ? '' : 's'} at ${list || '/result/effects'} (an invalid effect rejects every effect of the response).`,
        data: { rejectedBy: which },
        related: causes,
      });
    });
  },
});
