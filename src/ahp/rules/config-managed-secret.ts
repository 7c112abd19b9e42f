import { defineEventRule } from '../../core/engine.ts';
import type { RuleContext } from '../../core/rule.ts';
import { CLASS_DESCRIPTIONS, recurringCredentialIn } from '../../core/secrets.ts';
import { isObj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  carries:
    'Configuration change `{member}` carries {what}; managed secrets remain excluded even when a diff summary is present.',
} as const;

/** Report `text` at `pointer` when it carries a credential. */
function check(ctx: RuleContext<typeof MESSAGES>, pointer: string, member: string, text: string): void {
  const m = recurringCredentialIn(text);
  if (m) ctx.report({ pointer, args: { member, what: CLASS_DESCRIPTIONS[m.class], class: m.class } });
}

/**
 * The one classifier of src/core/secrets.ts: `token: now read from the keychain` is still the AEP-0003 §9.4(a) shape.
 */
export const configManagedSecret = defineEventRule({
  id: 'ahp/config-managed-secret',
  severity: 'error',
  description:
    'A configuration change summary and its setting names carry no managed secret (no credential-shaped value).',
  detail: 'The cited passage: managed secrets remain excluded.',
  spec: 'AHP interaction-payloads.md (configuration payloads)',
  messages: MESSAGES,
  types: ['config.change.before', 'config.change.after'],
  check(msg: AhpMessage, ctx) {
    const event = msg.event;
    if (
      msg.eventPointer === undefined ||
      !event ||
      (event.type !== 'config.change.before' && event.type !== 'config.change.after') ||
      !isObj(event.change)
    )
      return;
    const base = `${msg.eventPointer}/change`;
    const { summary, settings } = event.change;
    if (typeof summary === 'string') check(ctx, `${base}/summary`, 'summary', summary);
    if (Array.isArray(settings))
      for (let i = 0; i < settings.length; i++) {
        const s: unknown = settings[i];
        if (typeof s === 'string') check(ctx, `${base}/settings/${i}`, `settings[${i}]`, s);
      }
  },
});
