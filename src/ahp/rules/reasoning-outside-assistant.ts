import { defineEventRule } from '../../core/engine.ts';
import type { RuleContext } from '../../core/rule.ts';
import { isObj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  outside:
    'A reasoning part (category "reasoning") sits in a message with role {role:json}; reasoning stays attached to its owning assistant message.',
} as const;

/** Report each reasoning part of `m` (at `base` + `member`, `/index` when given) when its role is not assistant. */
function one(m: unknown, base: string, member: string, ctx: RuleContext<typeof MESSAGES>, index?: number): void {
  if (!isObj(m) || typeof m.role !== 'string' || m.role === 'assistant' || !Array.isArray(m.parts)) return;
  const parts = m.parts;
  for (let j = 0; j < parts.length; j++) {
    const p: unknown = parts[j];
    if (isObj(p) && p.category === 'reasoning') {
      // pointers are built only for a report: the common path allocates nothing
      const at = index === undefined ? `${base}${member}` : `${base}${member}/${index}`;
      ctx.report({ pointer: `${at}/parts/${j}/category`, args: { role: m.role } });
    }
  }
}

function list(v: unknown[], base: string, member: string, ctx: RuleContext<typeof MESSAGES>): void {
  for (let i = 0; i < v.length; i++) {
    const m: unknown = v[i];
    if (isObj(m) && m.role !== 'assistant') one(m, base, member, ctx, i);
  }
}

/** An error: reasoning "remains within its owning assistant message" (content-upload.md; see `detail`). */
export const reasoningOutsideAssistant = defineEventRule({
  id: 'ahp/reasoning-outside-assistant',
  severity: 'error',
  description: 'A content part with `category: "reasoning"` sits in a canonical message whose `role` is `assistant`.',
  detail:
    "Reasoning stays attached to its owning assistant message. One in a system, developer, user or tool message is an error: the part declares itself reasoning, and the content binding keeps reasoning within its owning assistant message (a delegated agent's relayed reasoning is re-owned by the tool result and is not classified as this message's reasoning). Read in the event's `items`, `delta`, `partialOutput` and `message.messages`; effect values are not read. Also cited: content-upload.md §Canonical messages and content selection.",
  spec: 'AHP execution-payloads.md §Identity and native boundary duties',
  quote: 'Reasoning stays attached to its owning assistant message',
  messages: MESSAGES,
  check(msg: AhpMessage, ctx) {
    const event = msg.event;
    const base = msg.eventPointer;
    if (base === undefined || !event) return;
    if (Array.isArray(event.items)) list(event.items, base, '/items', ctx);
    if (isObj(event.delta)) one(event.delta, base, '/delta', ctx);
    if (isObj(event.partialOutput)) one(event.partialOutput, base, '/partialOutput', ctx);
    if (isObj(event.message) && Array.isArray(event.message.messages))
      list(event.message.messages, base, '/message/messages', ctx);
  },
});
