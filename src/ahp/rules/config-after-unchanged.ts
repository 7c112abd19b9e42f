import { defineEventRule } from '../../core/engine.ts';
import { isObj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';

/** `ahp/config-after-unchanged`: an after event that names no changed setting. */
export const configAfterUnchanged = defineEventRule({
  id: 'ahp/config-after-unchanged',
  severity: 'warning',
  description:
    'A config.change.after describes an actual effective change, so its `settings` list names at least one changed setting; an empty list names none and looks like an unchanged proposal. A warning, not an error: the sentence is a statement of what after events represent, not a MUST (the MUST is for denied proposals: ahp/config-after-denied), the draft schema lets `settings` be empty, and managed secrets remain excluded, so a change to excluded settings alone may legitimately list none.',
  spec: 'AHP interaction-payloads.md (configuration after events: "no after event represents a denied or unchanged proposal"; "Managed secrets remain excluded")',
  messages: {
    empty:
      'This config.change.after lists no changed setting (`settings` is empty); an after event describes an actual effective change and never an unchanged proposal, unless every changed setting is an excluded managed one.',
  },
  types: ['config.change.after'],
  check(msg: AhpMessage, ctx) {
    const event = msg.event;
    if (msg.eventPointer === undefined || !event || event.type !== 'config.change.after' || !isObj(event.change))
      return;
    const settings = event.change.settings;
    if (Array.isArray(settings) && settings.length === 0)
      ctx.report({ pointer: `${msg.eventPointer}/change/settings` });
  },
});
