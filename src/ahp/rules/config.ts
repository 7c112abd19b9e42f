/**
 * ahp/config-managed-secret: "Managed secrets remain excluded even when a diff summary is
 * present" (AHP interaction-payloads.md, configuration payloads). A `config.change.before` or
 * `.after` whose `change.summary` or `change.settings[]` names carry a credential-shaped value
 * breaks it: a PEM block, an AWS access key id, a Bearer token, a `password=`-style
 * assignment, a JWT, or a recognisable provider token (the one detector of
 * src/core/secrets.ts, shared with AEP-0003 §9.4 `aep redact` and `aep/redaction-leak`).
 * A summary is prose, so an assignment whose value is a plain lowercase word ("token: now
 * read from the keychain") is not taken for a secret. The message names the member, never
 * the value. Tolerates any shape (the schema stage reports shape problems).
 */
import { defineEventRule } from '../../core/engine.ts';
import { CLASS_DESCRIPTIONS, findSecrets, type SecretMatch } from '../../core/secrets.ts';
import type { AhpMessage } from '../message.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const PROSE_WORD = /^[a-z]+[.,;:!?)]*$/;

/** The first credential-shaped match in `text` (assignments of a prose word excepted). */
function credentialIn(text: string): SecretMatch | undefined {
  for (const m of findSecrets(text)) {
    if (m.class === 'assignment' && PROSE_WORD.test(text.slice(m.start, m.end))) continue;
    return m;
  }
  return undefined;
}

/** No credential-shaped value in a configuration change's summary or setting names. */
export const configManagedSecret = defineEventRule<AhpMessage, 'ahp/config-managed-secret'>({
  id: 'ahp/config-managed-secret',
  severity: 'error',
  description: 'A configuration change summary and its setting names carry no managed secret (no credential-shaped value).',
  spec: 'AHP interaction-payloads.md (configuration payloads: managed secrets remain excluded)',
  check(msg, ctx) {
    const event = msg.event;
    if (msg.eventPointer === undefined || !event || (event.type !== 'config.change.before' && event.type !== 'config.change.after') || !isObj(event.change)) return;
    const base = `${msg.eventPointer}/change`;
    const say = (pointer: string, member: string, m: SecretMatch) =>
      ctx.report({
        pointer,
        message: `Configuration change \`${member}\` carries ${CLASS_DESCRIPTIONS[m.class]}; managed secrets remain excluded even when a diff summary is present.`,
        data: { class: m.class },
      });
    const { summary, settings } = event.change;
    if (typeof summary === 'string') {
      const m = credentialIn(summary);
      if (m) say(`${base}/summary`, 'summary', m);
    }
    if (Array.isArray(settings)) {
      settings.forEach((s, i) => {
        if (typeof s !== 'string') return;
        const m = credentialIn(s);
        if (m) say(`${base}/settings/${i}`, `settings[${i}]`, m);
      });
    }
  },
});
