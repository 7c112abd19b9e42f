/** The `attention.requested` form pieces the form-spec rules share, and the AEP-0003 §9.2 structural-text heuristic. */
import { isObj, type Obj } from '../core/value.ts';
import type { AepEvent } from './event.ts';

/** The payload of an `attention.requested`, or `undefined` for any other event. */
export function requestData(ev: AepEvent): Obj | undefined {
  if (ev.type !== 'attention.requested') return undefined;
  const d = ev.value.data;
  return isObj(d) ? d : undefined;
}

/** The object entries of `d.fields`. */
export function fieldsOf(d: Obj): Obj[] {
  return Array.isArray(d.fields) ? (d.fields as unknown[]).filter(isObj) : [];
}

/** Words of the AEP-0003 §9.2 synthesis templates, and the `kind` values (lower case). */
const TEMPLATE_WORDS: ReadonlySet<string> = new Set([
  'requests',
  'request',
  'asks',
  'ask',
  'question',
  'questions',
  'field',
  'fields',
  'option',
  'options',
  'choice',
  'choices',
  'permission',
  'input',
  'auth',
  'review',
  'form',
  'other',
]);
/** Punctuation a template may put around a token: `{agent} requests {kind}: {subject}`, `(4 fields)`. */
const EDGE = /^[\s:;,.()[\]{}"'`\u2013\u2014-]+|[\s:;,.()[\]{}"'`\u2013\u2014-]+$/g;

/**
 * The `[metadata*]` heuristic (AEP-0002 §5.3, AEP-0006, AEP-0003 §9.2): every word structural, a number or a template
 * word; the spec gives examples, not a grammar, so its rules are warnings.
 */
export function isStructuralText(text: string, structural: ReadonlySet<string>): boolean {
  if (structural.has(text)) return true;
  for (const raw of text.split(/\s+/)) {
    const t = raw.replace(EDGE, '');
    if (t === '' || structural.has(t) || structural.has(raw) || /^\d+$/.test(t) || TEMPLATE_WORDS.has(t.toLowerCase()))
      continue;
    return false;
  }
  return true;
}
