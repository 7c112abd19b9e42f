/** JSON text of a value with the exact literals of the numbers JSON.parse changed kept (filters, bridges). */
import { type BigIntegerLiteral, compareNumberLiterals, numberLiteralAt } from './json.ts';
import { childPointer } from './pointer.ts';

/** A number as written, at its JSON Pointer. */
export type NumberLiteral = Pick<BigIntegerLiteral, 'pointer' | 'text'>;

/** `JSON.stringify(value)` with the literal of each number in `literals` where the value still is the number it reads as. */
export function serializeEvent(value: unknown, literals: readonly NumberLiteral[] = []): string {
  if (literals.length === 0) return JSON.stringify(value);
  const lit = new Map(literals.map((b) => [b.pointer, b.text]));
  const ser = (v: unknown, p: string): string => {
    if (typeof v === 'number') {
      const l = lit.get(p);
      return l !== undefined && Object.is(Number(l), v) ? l : JSON.stringify(v);
    }
    if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
    if (Array.isArray(v)) return '[' + v.map((x, i) => ser(x, childPointer(p, i))).join(',') + ']';
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v))
      if (x !== undefined) parts.push(JSON.stringify(k) + ':' + ser(x, childPointer(p, k)));
    return '{' + parts.join(',') + '}';
  };
  return ser(value, '');
}

/** `text` with every non-ASCII character as a lowercase `\uXXXX` escape, as the upstream AEP-0005 pins are written. */
export function asciiJson(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// a decimal of at most 15 significant digits in the normal range round-trips exactly: only these can change
const CHANGED_SCREEN = /(?:\d\.?){15}\d|[eE][+-]?\d{2}/;

/** The literal of every number of `text` (parsed as `value`) that JSON.stringify would write as another value (1e400). */
export function changedNumbers(
  text: string,
  value: unknown,
  bigIntegers: readonly NumberLiteral[],
): readonly NumberLiteral[] {
  if (!CHANGED_SCREEN.test(text)) return bigIntegers;
  const out: NumberLiteral[] = [...bigIntegers];
  const listed = new Set(bigIntegers.map((b) => b.pointer));
  const walk = (v: unknown, p: string): void => {
    if (typeof v === 'number') {
      if (listed.has(p)) return;
      const literal = numberLiteralAt(text, p);
      if (literal !== undefined && (!Number.isFinite(v) || compareNumberLiterals(literal, String(v)) !== 0))
        out.push({ pointer: p, text: literal });
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i], childPointer(p, i));
    } else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, childPointer(p, k));
  };
  walk(value, '');
  return out;
}
