import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/**
 * `aep/command-second-target`. Decided only for a command in the input: the first ack of it names its target, and an
 * ack from another source in the same session is a second target (a byte-identical re-ack is redelivery, deduped
 * first; a second ack of the same source is aep/ack-exclusive).
 */
export const commandSecondTarget = defineStreamRule({
  id: 'aep/command-second-target',
  severity: 'error',
  description:
    'A command reaches at most one target: no ack for it comes from a second source (another emitter claiming the addressed session) after one target acked it.',
  detail:
    'AEP-0004 §4.5: a relay delivers a command to at most one target, never broadcasts, and "One command MUST NOT become N executions". Decided when the command is in the input.',
  spec: 'AEP-0004 §4.5, §7',
  messages: {
    second:
      'This {type} comes from a second target of the command at {command}, which another source already acknowledged at {first}; a command is delivered to at most one target and one command must not become N executions.',
  },
  on: ['secondTarget', 'earlyAck'],
  onEvent(f: AepFacts, ctx) {
    // acks earlier in the input than their command: judged when it comes, each second one at its own line
    const early = f.earlyAck;
    if (early?.second) {
      const first = markLocation(early.at, '/cause');
      const command = markLocation(f.at!, '/id');
      for (const s of early.second)
        ctx.report({
          at: markLocation(s.at, '/cause'),
          args: { type: s.type, first, command },
          related: [first, command],
        });
    }
    const t = f.secondTarget;
    if (!t) return;
    const first = markLocation(t.first, '/cause');
    const command = markLocation(t.command, '/id');
    ctx.report({ pointer: '/cause', args: { type: f.ev.type, first, command }, related: [first, command] });
  },
});
