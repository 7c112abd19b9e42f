/** JSON text of a value with the exact literals of integers beyond 2^53 kept (filters, bridges). */
import type { BigIntegerLiteral } from './json.ts';
import { childPointer } from './pointer.ts';

/** `JSON.stringify(value)` with the exact literal of each big integer (JSON.parse rounds them; the filter must not). */
export function serializeEvent(value: unknown, bigIntegers: readonly BigIntegerLiteral[] = []): string {
  if (bigIntegers.length === 0) return JSON.stringify(value);
  const lit = new Map(bigIntegers.map((b) => [b.pointer, b.text]));
  const ser = (v: unknown, p: string): string => {
    if (typeof v === 'number') return lit.get(p) ?? JSON.stringify(v);
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
