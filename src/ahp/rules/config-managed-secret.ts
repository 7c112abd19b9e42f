import { defineEventRule } from '../../core/engine.ts';
import { CLASS_DESCRIPTIONS, credentialIn, type SecretMatch } from '../../core/secrets.ts';
import { isObj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';

// summaries and setting names repeat (a harness writes the same change again): their verdicts are kept, a bounded number
const MEMO = 512;
const MEMO_TEXT_MAX = 4096;
const verdicts = new Map<string, SecretMatch | null>();

/** {@link credentialIn} of `text`, kept for texts of at most MEMO_TEXT_MAX code units. */
function credentialOf(text: string): SecretMatch | undefined {
  if (text.length > MEMO_TEXT_MAX) return credentialIn(text);
  let v = verdicts.get(text);
  if (v === undefined) {
    if (verdicts.size >= MEMO) verdicts.clear();
    v = credentialIn(text) ?? null;
    verdicts.set(text, v);
  }
  return v ?? undefined;
}

/**
 * The one classifier of src/core/secrets.ts: `token: now read from the keychain` is still the AEP-0003 §9.4(a) shape.
 */
export const configManagedSecret = defineEventRule<AhpMessage, 'ahp/config-managed-secret'>({
  id: 'ahp/config-managed-secret',
  severity: 'error',
  description:
    'A configuration change summary and its setting names carry no managed secret (no credential-shaped value).',
  spec: 'AHP interaction-payloads.md (configuration payloads: managed secrets remain excluded)',
  messages: {
    carries:
      'Configuration change `{member}` carries {what}; managed secrets remain excluded even when a diff summary is present.',
  },
  check(msg, ctx) {
    const event = msg.event;
    if (
      msg.eventPointer === undefined ||
      !event ||
      (event.type !== 'config.change.before' && event.type !== 'config.change.after') ||
      !isObj(event.change)
    )
      return;
    const base = `${msg.eventPointer}/change`;
    const check = (pointer: string, member: string, text: string) => {
      const m = credentialOf(text);
      if (m) ctx.report({ pointer, args: { member, what: CLASS_DESCRIPTIONS[m.class], class: m.class } });
    };
    const { summary, settings } = event.change;
    if (typeof summary === 'string') check(`${base}/summary`, 'summary', summary);
    if (Array.isArray(settings))
      settings.forEach((s, i) => {
        if (typeof s === 'string') check(`${base}/settings/${i}`, `settings[${i}]`, s);
      });
  },
});
