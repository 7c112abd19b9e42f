import { defineEventRule } from '../../core/engine.ts';
import type { RuleContext } from '../../core/rule.ts';
import { isObj } from '../../core/value.ts';
import { registrationHooks, type AhpMessage } from '../message.ts';

const MESSAGES = {
  repeat: 'Backend id repeats the id of /hooks/{prior}; backend ids are unique within a registration document.',
} as const;

/** `ahp/registration-duplicate-id`; never echoes a backend id. */
export const registrationDuplicateId = defineEventRule({
  id: 'ahp/registration-duplicate-id',
  severity: 'error',
  description: 'Backend ids are unique within a registration document.',
  spec: 'AHP base/registration.md §Backend fields',
  messages: MESSAGES,
  check(msg: AhpMessage, ctx) {
    // the closure over `ctx` is made only for a registration (here it cost a context every message)
    const hooks = registrationHooks(msg);
    if (hooks) reportRepeats(hooks, ctx);
  },
});

function reportRepeats(hooks: unknown[], ctx: RuleContext<typeof MESSAGES>): void {
  const firstIndex = new Map<string, number>();
  hooks.forEach((hook, i) => {
    if (!isObj(hook) || typeof hook.id !== 'string') return;
    const prior = firstIndex.get(hook.id);
    if (prior === undefined) firstIndex.set(hook.id, i);
    else ctx.report({ pointer: `/hooks/${i}/id`, args: { prior } });
  });
}
