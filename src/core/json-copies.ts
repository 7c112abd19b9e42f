/**
 * Which repeated member names have copies with different values: `JSON.parse` keeps the last, another reader may keep
 * the first (RFC 8259 §4), so such a verdict depends on member order. Runs only when the parse reported repeats.
 */
import { canonicalJson } from './canonical.ts';
import { memberCopies, parseJsonText } from './json.ts';

/**
 * For each of `pointers` whose copies in `text` differ as canonical JSON: its number of copies (copies of every
 * repeated parent count). Empty when the value does not depend on which copy a reader keeps.
 */
export function differingCopies(text: string, pointers: Iterable<string>): Map<string, number> {
  const out = new Map<string, number>();
  const wanted = new Set(pointers);
  if (wanted.size === 0) return out;
  for (const [pointer, copies] of memberCopies(text, wanted)) {
    let first: string | undefined;
    for (const t of copies) {
      // a copy of a member of text already parsed under the run's depth limit: no other limit
      const p = parseJsonText(t, Number.MAX_SAFE_INTEGER);
      const c = p.ok ? canonicalJson(p) : t;
      if (first === undefined) first = c;
      else if (c !== first) {
        out.set(pointer, copies.length);
        break;
      }
    }
  }
  return out;
}
