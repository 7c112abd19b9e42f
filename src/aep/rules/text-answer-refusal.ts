import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import { CAPTURE_RANK } from '../event.ts';
import type { AepFacts } from '../analyzers/model.ts';
import { optionStance } from '../text-answer.ts';

/**
 * `aep/text-answer-refusal`. A SHOULD, hence a warning; the refusing option is read from the option id's words, as
 * aep/text-answer-permissive reads the permissive one (an option of unknown meaning is not judged).
 */
export const textAnswerRefusal = defineStreamRule({
  id: 'aep/text-answer-refusal',
  severity: 'warning',
  description:
    'A text-only control.attention.respond to a kind "permission" request whose text names no option is either rejected or applied as the refusing option with the text kept.',
  detail:
    'Rejected: control.rejected, reason "invalid"; the text is kept as the stated reason (answer.text, at capture redacted or full). Its attention.answered does not leave answer.option out, and when it records a refusing option (an id with a word such as deny, reject, no, block, cancel) it keeps answer.text (AEP-0008 §1, AEP-0002 §5.3: the emitter SHOULD either apply its refusing option with the text preserved, or reject the command).',
  spec: 'AEP-0008 §1; AEP-0002 §5.3',
  messages: {
    none: 'This attention.answered records no option for the text-only answer of the command at {command}, whose text names no option of the permission request; the emitter should apply its refusing option with the text as the reason, or reject the command.',
    reason:
      'This attention.answered applies the refusing option to the text-only answer of the command at {command} but drops the text; the text should be kept as the stated reason in answer.text.',
  },
  on: ['outcome'],
  onEvent(f: AepFacts, ctx) {
    // an answer whose `data` failed the schema stage is unknown, not absent
    if (f.ev.untrusted?.has('data')) return;
    const o = f.outcome;
    const t = o?.text;
    if (!t?.permission || t.match.status !== 'unmatched') return;
    const command = markLocation(o!.command, '/data/answer/text');
    if (o!.option === undefined) {
      ctx.report({ pointer: '/data/answer', messageId: 'none', args: { command }, related: [command] });
      return;
    }
    const keepable = CAPTURE_RANK[f.ev.capture] >= CAPTURE_RANK.redacted;
    if (optionStance(o!.option) === 'refusing' && !o!.textKept && keepable)
      ctx.report({ pointer: '/data/answer', messageId: 'reason', args: { command }, related: [command] });
  },
});
