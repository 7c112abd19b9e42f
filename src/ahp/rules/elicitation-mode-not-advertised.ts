import { markLocation, mayFollow } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/elicitation-mode-not-advertised`: an adapter emits only the modes it advertises. */
export const elicitationModeNotAdvertised = defineAhpStreamRule({
  id: 'ahp/elicitation-mode-not-advertised',
  severity: 'error',
  description:
    'An elicitation event uses only a mode (form, url) that the capability advertisement of the stream grants.',
  detail: "The cited binding's `capabilities.elicitation`.",
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    request:
      "Elicitation mode {mode:json} is not advertised: the request's `capabilities.elicitation` grants only {modes}; an adapter emits only the modes it advertises.",
    requestEmpty:
      "Elicitation mode {mode:json} is not advertised: the request's `capabilities.elicitation` is an empty elicitation object, which grants no mode; an adapter emits only the modes it advertises.",
    requestAbsent:
      "Elicitation mode {mode:json} is not advertised: the request's `capabilities` has no `elicitation` member, and absent modes are unsupported; an adapter emits only the modes it advertises.",
    manifest:
      'Elicitation mode {mode:json} is not advertised: the capabilities manifest on {manifest} grants only {modes}; an adapter emits only the modes it advertises.',
    manifestAbsent:
      'Elicitation mode {mode:json} is not advertised: the capabilities manifest on {manifest} has no `elicitation` member for this event, and absent modes are unsupported; an adapter emits only the modes it advertises.',
    manifestEmpty:
      'Elicitation mode {mode:json} is not advertised: the capabilities manifest on {manifest} is an empty elicitation object, which grants no mode; an adapter emits only the modes it advertises.',
  },
  on: ['mode'],
  onEvent(facts, ctx, state) {
    const m = facts.event?.mode;
    if (!m) return;
    // a line after the manifest that gave no message may have held a newer one: ahp/manifest-unverifiable
    if (m.by === 'manifest' && state.unreadable && mayFollow(state.unreadable, m.at!)) return;
    const msg = facts.msg;
    const at =
      m.by === 'request'
        ? markLocation(
            { file: msg.source, line: msg.line, byteOffset: msg.byteOffset },
            m.absent ? '/params/capabilities' : '/params/capabilities/elicitation',
          )
        : markLocation(m.at!);
    ctx.report({
      pointer: '/params/event/elicitation/mode',
      messageId: `${m.by}${m.advertised.length ? '' : m.absent ? 'Absent' : 'Empty'}`,
      args: {
        mode: m.mode,
        modes: m.advertised.map((x) => JSON.stringify(x)).join(' and '),
        ...(m.by === 'manifest' ? { manifest: at } : {}),
      },
      related: [at],
    });
  },
});
