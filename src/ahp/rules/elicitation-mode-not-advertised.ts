/**
 * ahp/elicitation-mode-not-advertised (error): a `user.elicitation.request` or `.result` event
 * whose `mode` the stream's capability advertisement does not grant. `capabilities.elicitation.form`
 * and `.url` are independent optional objects; an absent mode is unsupported, and an empty
 * `elicitation` object grants neither, so an adapter that advertises only form must not emit URL
 * elicitations (and vice versa). AHP interaction-payloads.md §MCP elicitation binding
 * (2025-11-25), last paragraphs ("Absent modes are unsupported ... Advertise only modes and
 * effects that the adapter can faithfully enforce").
 *
 * The advertisement is, for an intercepted event, its request's own `capabilities.elicitation`
 * when present; otherwise (and for observed events) the entry for the event type in the latest
 * `hooks/capabilities` manifest of the stream, when it has `capabilities.elicitation`. Without an
 * advertisement that has an `elicitation` object, nothing is checked (the member is optional).
 * Reported once per event (not again on a retry or its observation).
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/elicitation-mode-not-advertised` rule, as described in the module comment above. */
export const elicitationModeNotAdvertised = defineAhpStreamRule({
  id: 'ahp/elicitation-mode-not-advertised',
  severity: 'error',
  description:
    'An elicitation event uses only a mode (form, url) that the capability advertisement of the stream grants.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25) (capabilities.elicitation)',
  onEvent(facts, ctx) {
    const m = facts.event?.mode;
    if (!m) return;
    const granted = m.advertised.length
      ? `grants only ${m.advertised.map((x) => `"${x}"`).join(' and ')}`
      : 'is an empty elicitation object, which grants no mode';
    const where =
      m.by === 'request'
        ? "the request's `capabilities.elicitation`"
        : `the capabilities manifest on line ${m.at!.line}`;
    ctx.report({
      pointer: '/params/event/elicitation/mode',
      message: `Elicitation mode "${m.mode}" is not advertised: ${where} ${granted}; an adapter emits only the modes it advertises.`,
      related:
        m.by === 'request'
          ? [
              markLocation(
                { file: facts.msg.source, line: facts.msg.line, byteOffset: facts.msg.byteOffset },
                '/params/capabilities/elicitation',
              ),
            ]
          : [markLocation(m.at!)],
    });
  },
});
