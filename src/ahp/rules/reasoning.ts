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
import type { AhpMessage } from '../message.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

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
    const one = (m: unknown, pointer: string) => {
      if (!isObj(m) || typeof m.role !== 'string' || m.role === 'assistant' || !Array.isArray(m.parts)) return;
      m.parts.forEach((p, j) => {
        if (isObj(p) && p.category === 'reasoning') {
          ctx.report({ pointer: `${pointer}/parts/${j}/category`, message: `A reasoning part (category "reasoning") sits in a message with role "${m.role}"; reasoning stays attached to its owning assistant message.` });
        }
      });
    };
    const list = (v: unknown, pointer: string) => {
      if (Array.isArray(v)) v.forEach((m, i) => one(m, `${pointer}/${i}`));
    };
    list(event.items, `${base}/items`);
    one(event.delta, `${base}/delta`);
    one(event.partialOutput, `${base}/partialOutput`);
    if (isObj(event.message)) list(event.message.messages, `${base}/message/messages`);
  },
});
