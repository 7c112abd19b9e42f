/**
 * ahp/reasoning-outside-assistant: "Reasoning stays attached to its owning assistant message"
 * (execution-payloads.md §Identity and native boundary duties); content-upload.md: "reasoning
 * remains within its owning assistant message and distinguishable by category" and "Producers
 * MUST preserve known reasoning classification as `category: "reasoning"`". So a part with
 * `category: "reasoning"` in a canonical message whose `role` is not `assistant` breaks it.
 *
 * Read from the event's canonical-message slots: `items` (lists of messages; generic part
 * lists have no `role` and are skipped), `delta` (turn.progress), `partialOutput`
 * (tool.progress) and `message.messages` (user.message.inbound / .outbound). Effect values in
 * intercept responses are not read. A warning, not an error: the category name is the only
 * sign of reasoning on the wire, and a producer may relay another agent's reasoning inside a
 * tool result (a delegated call) under the same category name.
 */
import { defineEventRule } from '../../core/engine.ts';
import type { RuleContext } from '../../core/rule.ts';
import type { AhpMessage } from '../message.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Report each reasoning part of `m` when it is a canonical message whose role is not assistant. */
function one(m: unknown, pointer: string, ctx: RuleContext): void {
  if (!isObj(m) || typeof m.role !== 'string' || m.role === 'assistant' || !Array.isArray(m.parts)) return;
  const parts = m.parts;
  for (let j = 0; j < parts.length; j++) {
    const p: unknown = parts[j];
    if (isObj(p) && p.category === 'reasoning') {
      ctx.report({
        pointer: `${pointer}/parts/${j}/category`,
        message: `A reasoning part (category "reasoning") sits in a message with role "${m.role}"; reasoning stays attached to its owning assistant message.`,
      });
    }
  }
}

/** {@link one} over each element of a message list. */
function list(v: unknown[], pointer: string, ctx: RuleContext): void {
  for (let i = 0; i < v.length; i++) {
    const m: unknown = v[i];
    if (isObj(m) && m.role !== 'assistant') one(m, `${pointer}/${i}`, ctx);
  }
}

/** A part with category reasoning in a non-assistant canonical message. */
export const reasoningOutsideAssistant = defineEventRule<AhpMessage, 'ahp/reasoning-outside-assistant'>({
  id: 'ahp/reasoning-outside-assistant',
  severity: 'warning',
  description:
    'A content part with `category: "reasoning"` sits in a canonical message whose `role` is `assistant`: reasoning stays attached to its owning assistant message. One in a system, developer, user or tool message is a warning (the category name is the only sign of reasoning on the wire; a delegated agent\'s reasoning relayed in a tool result may carry it). Read in the event\'s `items`, `delta`, `partialOutput` and `message.messages`; effect values are not read.',
  spec: 'AHP execution-payloads.md §Identity and native boundary duties ("Reasoning stays attached to its owning assistant message"); content-upload.md §Canonical messages and content selection',
  check(msg, ctx) {
    const event = msg.event;
    const base = msg.eventPointer;
    if (base === undefined || !event) return;
    // the common path (no message slot, or only assistant messages) allocates nothing
    if (Array.isArray(event.items)) list(event.items, `${base}/items`, ctx);
    if (isObj(event.delta)) one(event.delta, `${base}/delta`, ctx);
    if (isObj(event.partialOutput)) one(event.partialOutput, `${base}/partialOutput`, ctx);
    if (isObj(event.message) && Array.isArray(event.message.messages))
      list(event.message.messages, `${base}/message/messages`, ctx);
  },
});
