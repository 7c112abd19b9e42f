import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/outcome-cause`: decided when the command and its `control.accepted` are in the input (see `detail`). */
export const outcomeCause = defineStreamRule({
  id: 'aep/outcome-cause',
  severity: 'error',
  description: 'The outcome Event of an accepted command names in cause the command or its ack.',
  detail:
    'AEP-0004 §6: "outcome.cause = command.id (or the ack\'s id)"; §7: a target emits outcome Events cause-linked to the command. The outcome Events judged: the attention.answered of an accepted control.attention.respond (not one answered out of band, via "oob") and the run.cancelled with by "control" after an accepted control.cancel. Decided when the command and its control.accepted are in the input.',
  spec: 'AEP-0004 §5, §6, §7',
  messages: {
    missing:
      'This {type} is the outcome of the accepted {commandType} at {command} but has no `cause`; an outcome names the command or its ack in cause.',
    other:
      'This {type} is the outcome of the accepted {commandType} at {command}, but its cause names neither that command nor its ack; an outcome names the command or its ack in cause.',
  },
  on: ['outcome'],
  onEvent(f: AepFacts, ctx) {
    // a member that failed the schema stage is unknown, not absent: its own finding says so
    if (f.ev.untrusted?.has('cause')) return;
    const o = f.outcome;
    if (!o || o.causeLinked) return;
    const command = markLocation(o.command, '/id');
    ctx.report({
      pointer: '/cause',
      messageId: f.ev.value.cause === undefined ? 'missing' : 'other',
      args: { type: f.ev.type, commandType: o.commandType, command },
      related: [command],
    });
  },
});
