import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';
import { appliedPermissiveUnnamed, PERMISSIVE_WORDS, REFUSING_WORDS } from '../text-answer.ts';

/** `aep/text-answer-permissive`: the safety MUST of AEP-0008 §1; permissive read from the option id's words. */
export const textAnswerPermissive = defineStreamRule({
  id: 'aep/text-answer-permissive',
  severity: 'error',
  description:
    'A text-only control.attention.respond to a kind "permission" request is never applied as a permissive option its text does not name (text naming no option, or another one).',
  detail: `Names no option: after trimming, case-insensitively no option id and not exactly one label. Its attention.answered does not record a permissive option (AEP-0008 §1, AEP-0002 §5.3: "unmatched text MUST NOT be applied as the permissive choice"). Text that names another option ("deny") recorded as a permissive one is the same error: an emitter that applied another option than the one named did not map the text, so it applied unmatched text. Permissive is read from the option id's words (${PERMISSIVE_WORDS.join(', ')}), with no refusing word (checked first: ${REFUSING_WORDS.join(', ')}); decided when the request's labels are the real ones (capture redacted or full, or, below that, no label is a placeholder: its id, a number) and the command and its answer are in the input (the answer after the command's control.accepted, or naming the command in cause while it awaits its ack).`,
  spec: 'AEP-0008 §1; AEP-0002 §5.3',
  messages: {
    permissive:
      'This attention.answered applies the permissive option at /data/answer/option to the text-only answer of the command at {command}, whose text names no option of the permission request; unmatched text must never be applied as the permissive choice.',
    other:
      'This attention.answered applies the permissive option at /data/answer/option to the text-only answer of the command at {command}, whose text names the option {named} of the permission request; text applied as another option than the one it names is unmatched text, never to be applied as the permissive choice.',
  },
  on: ['outcome'],
  onEvent(f: AepFacts, ctx) {
    // an answer whose `data` failed the schema stage is unknown, not absent
    if (f.ev.untrusted?.has('data')) return;
    const o = f.outcome;
    if (!o || !appliedPermissiveUnnamed(o.text, o.option)) return;
    const command = markLocation(o.command, '/data/answer/text');
    const m = o.text!.match;
    if (m.status === 'matched')
      ctx.report({
        pointer: '/data/answer/option',
        messageId: 'other',
        args: { command, named: JSON.stringify(m.option) },
        related: [command],
      });
    else ctx.report({ pointer: '/data/answer/option', messageId: 'permissive', args: { command }, related: [command] });
  },
});
