/**
 * Which repeated member names of a JSON text have copies with different values. `JSON.parse`
 * keeps the last copy and another reader may keep the first (RFC 8259 §4: with duplicate names
 * "the behavior of software that receives such an object is unpredictable"), so a verdict that
 * reads such a member would depend on member order. One function for both protocols: the AEP
 * payload members (src/aep/protocol.ts) and the AHP MCP elicitation bodies (src/ahp/schema/elicitation.ts).
 *
 * Runs only on texts whose parse reported repeated names (the rare path): one extra scan.
 */
import { canonicalJson } from './canonical.ts';
import { memberCopies, parseJsonText } from './json.ts';

/**
 * For each of `pointers` (repeated members, as the parse reported them) whose copies in `text`
 * (valid JSON) are not all the same JSON value: its number of copies. Copies are compared as
 * canonical JSON (member order, whitespace and number spelling aside; big integers exactly,
 * src/core/canonical.ts). Inside a repeated parent the copies of every parent count, so a repeat
 * nested in differing copies differs too. Empty when every repeat's copies are equal: the value
 * does not depend on which copy a reader keeps.
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
