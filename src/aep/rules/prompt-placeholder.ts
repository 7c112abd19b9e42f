import { defineEventRule } from '../../core/engine.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { CAPTURE_RANK, type AepEvent } from '../event.ts';
import { fieldsOf, isStructuralText, requestData } from '../form-text.ts';

/** The AEP-0003 §9.2 synthesis template. */
const TEMPLATE = '{agent} requests {kind}: {subject}';

/** The envelope members a prompt may be synthesised from (AEP-0003 §9.2). */
const STRUCTURE = ['agent', 'subject', 'type', 'session', 'run', 'step'] as const;

/** The structural values a prompt may be synthesised from (AEP-0003 §9.2). */
function promptStructure(ev: AepEvent, d: Obj): Set<string> {
  const out = new Set<string>();
  for (const name of STRUCTURE) {
    const v = ev.value[name];
    if (typeof v === 'string') out.add(v);
  }
  if (typeof d.kind === 'string') out.add(d.kind);
  const ids = (list: unknown) => {
    if (Array.isArray(list)) for (const x of list) if (isObj(x) && typeof x.id === 'string') out.add(x.id);
  };
  ids(d.options);
  ids(d.fields);
  for (const f of fieldsOf(d)) ids(f.choices);
  return out;
}

/** The template itself; without a `subject` on the event, one token (the hook's subject) stands for it. */
function isSynthesisedPrompt(ev: AepEvent, d: Obj, prompt: string): boolean {
  const head = `${String(ev.value.agent)} requests ${String(d.kind)}`;
  if (prompt === head) return true;
  if (!prompt.startsWith(head + ': ')) return false;
  const rest = prompt.slice(head.length + 2);
  const subject = ev.value.subject;
  return typeof subject === 'string' ? rest === subject : rest !== '' && !/\s/.test(rest);
}

/** `aep/prompt-placeholder`. */
export const promptPlaceholder = defineEventRule({
  id: 'aep/prompt-placeholder',
  severity: 'warning',
  description:
    'Below capture "redacted", an attention.requested prompt is synthesised from structural metadata only, e.g. "{agent} requests {kind}: {subject}".',
  detail:
    "Heuristic: the prompt is that template with the event's agent, kind and subject (without a subject on the event, one token without spaces stands for it), or, as for aep/form-label-placeholder, every word is one of the event's structural values (agent, subject, type, session, run, step, kind, option/field/choice ids), a number, or a word of the synthesis templates (requests, asks, question(s), field(s), option(s), choice(s), the kind values); any other word counts as authored text.",
  spec: 'AEP-0002 §5.3 prompt [metadata*]; AEP-0003 §9.2',
  messages: {
    prompt:
      'At capture {capture:json} the prompt must be synthesised from structural metadata (e.g. {template:json}); this one is a string of {length} char{length:s} with other words.',
  },
  types: ['attention.requested'], // requestData
  check(ev: AepEvent, ctx) {
    const d = requestData(ev);
    if (!d || typeof d.prompt !== 'string' || CAPTURE_RANK[ev.capture] >= CAPTURE_RANK.redacted) return;
    // a structural value the envelope stage could not trust (README §Decisions on a partly broken envelope) leaves the
    // words the prompt may be synthesised from unknown
    if (ev.untrusted !== undefined && STRUCTURE.some((m) => ev.untrusted!.has(m))) return;
    if (isSynthesisedPrompt(ev, d, d.prompt) || isStructuralText(d.prompt, promptStructure(ev, d))) return;
    ctx.report({
      pointer: '/data/prompt',
      args: { capture: ev.capture, template: TEMPLATE, length: [...d.prompt].length },
    });
  },
});
