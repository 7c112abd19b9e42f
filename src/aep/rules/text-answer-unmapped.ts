import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';
import { appliedPermissiveUnnamed } from '../text-answer.ts';

/** `aep/text-answer-unmapped`. A SHOULD of the receiving emitter, hence a warning. */
export const textAnswerUnmapped = defineStreamRule({
  id: 'aep/text-answer-unmapped',
  severity: 'warning',
  description:
    'A text-only control.attention.respond whose text names an option of the request is honored as that option.',
  detail:
    'Names an option: after trimming, case-insensitively an option id, or exactly one option label. Honored: its attention.answered records that option as answer.option, and it is not rejected as invalid while the request is open (AEP-0008 §1, AEP-0002 §5.3: the receiving emitter SHOULD treat such text as that option).',
  spec: 'AEP-0008 §1; AEP-0002 §5.3',
  messages: {
    answered:
      'The text of the command at {command} names an option of the request, but this attention.answered records another option or none; text that names an option should be recorded as that option in answer.option.',
    rejected:
      'The text of the command at {command} names an option of the open request, but this control.rejected refuses it as invalid; text that names an option should be honored as that option.',
  },
  on: ['outcome', 'rejectedMatched', 'earlyAck'],
  onEvent(f: AepFacts, ctx) {
    // the text answer came after its rejection in the input: reported at the rejection's line, as in the other order
    if (f.earlyAck?.rejectedMatched) {
      const command = markLocation(f.at!, '/data/answer/text');
      const at = markLocation(f.earlyAck.at, '/data/reason');
      ctx.report({ at, messageId: 'rejected', args: { command }, related: [command] });
      return;
    }
    // an answer whose `data` failed the schema stage is unknown, not absent
    if (f.ev.untrusted?.has('data')) return;
    const r = f.rejectedMatched;
    if (r) {
      const command = markLocation(r.command, '/data/answer/text');
      ctx.report({ pointer: '/data/reason', messageId: 'rejected', args: { command }, related: [command] });
      return;
    }
    const o = f.outcome;
    const m = o?.text?.match;
    if (m?.status !== 'matched' || o!.option === m.option) return;
    // applied as a permissive option it does not name: aep/text-answer-permissive's error, one finding for one fault
    if (appliedPermissiveUnnamed(o!.text, o!.option)) return;
    const command = markLocation(o!.command, '/data/answer/text');
    ctx.report({
      pointer: o!.option === undefined ? '/data/answer' : '/data/answer/option',
      messageId: 'answered',
      args: { command },
      related: [command],
    });
  },
});
