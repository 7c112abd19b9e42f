/**
 * Per-event rules of the configuration payloads (AHP interaction-payloads.md, configuration
 * `change`): what one `config.change.*` event can show about itself. The cross-event half
 * (an after event following a denied proposal) is `ahp/config-after-denied` in src/ahp/stream/.
 *
 * ahp/config-managed-secret: "Managed secrets remain excluded even when a diff summary is
 * present" (AHP interaction-payloads.md, configuration payloads). A `config.change.before` or
 * `.after` whose `change.summary` or `change.settings[]` names carry a credential-shaped value
 * breaks it: a secret match of the one classification of src/core/secrets.ts (PEM block of
 * private material, AWS access key id, Bearer token, `password=`-style assignment value, JWT,
 * provider token), the same one `aep redact` applies and the AEP leak rules read, so a string
 * gets the same verdict in both protocols. A summary is prose, but `token: now read from the
 * keychain` is still the AEP-0003 §9.4(a) assignment shape (`\S+` takes any word), which every
 * consumer of the classification reads alike. The message names the member, never
 * the value. Tolerates any shape (the schema stage reports shape problems).
 */
import { defineEventRule } from '../../core/engine.ts';
import { CLASS_DESCRIPTIONS, credentialIn, type SecretMatch } from '../../core/secrets.ts';
import type { AhpMessage } from '../message.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** No credential-shaped value in a configuration change's summary or setting names. */
export const configManagedSecret = defineEventRule<AhpMessage, 'ahp/config-managed-secret'>({
  id: 'ahp/config-managed-secret',
  severity: 'error',
  description:
    'A configuration change summary and its setting names carry no managed secret (no credential-shaped value).',
  spec: 'AHP interaction-payloads.md (configuration payloads: managed secrets remain excluded)',
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

/**
 * A `config.change.after` whose `settings` list is empty: it names no setting that changed.
 * interaction-payloads.md: "no after event represents a denied or unchanged proposal".
 */
export const configAfterUnchanged = defineEventRule<AhpMessage, 'ahp/config-after-unchanged'>({
  id: 'ahp/config-after-unchanged',
  severity: 'warning',
  description:
    'A config.change.after describes an actual effective change, so its `settings` list names at least one changed setting; an empty list names none and looks like an unchanged proposal. A warning, not an error: the sentence is a statement of what after events represent, not a MUST (the MUST is for denied proposals: ahp/config-after-denied), the draft schema lets `settings` be empty, and managed secrets remain excluded, so a change to excluded settings alone may legitimately list none.',
  spec: 'AHP interaction-payloads.md (configuration after events: "no after event represents a denied or unchanged proposal"; "Managed secrets remain excluded")',
  check(msg, ctx) {
    const event = msg.event;
    if (msg.eventPointer === undefined || !event || event.type !== 'config.change.after' || !isObj(event.change))
      return;
    const settings = event.change.settings;
    if (Array.isArray(settings) && settings.length === 0) {
      ctx.report({
        pointer: `${msg.eventPointer}/change/settings`,
        message:
          'This config.change.after lists no changed setting (`settings` is empty); an after event describes an actual effective change and never an unchanged proposal, unless every changed setting is an excluded managed one.',
      });
    }
  },
});
