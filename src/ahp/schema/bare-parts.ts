/**
 * A content part where the AHP schema stage wants a canonical message: one finding in place of the schema's findings
 * about its missing and extra members (src/ahp/schema/stage.ts).
 */
import { getAt } from '../../core/pointer.ts';
import { isObj } from '../../core/value.ts';
import { AHP_SCHEMA_RULES, type SchemaStageFinding } from './rules.ts';

/** A content part where a message belongs: an object with a `kind` and neither `role` nor `parts`. */
const partShaped = (x: unknown): boolean =>
  isObj(x) && typeof x.kind === 'string' && !Object.hasOwn(x, 'role') && !Object.hasOwn(x, 'parts');

const parentOf = (pointer: string): string => pointer.slice(0, pointer.lastIndexOf('/'));

/**
 * One finding for a content part where a canonical message belongs (in a list or a singular slot), instead of one per
 * missing or extra member: at the list when every item is a part (a bare part list is not a message list, execution-payloads.md §Content and
 * accounting), else at each such item.
 */
export function bareParts(findings: SchemaStageFinding[], value: unknown): SchemaStageFinding[] {
  const rule = AHP_SCHEMA_RULES['ahp/canonical-message'];
  const itemOf = (pointer: string): string | undefined => {
    for (const c of [pointer, parentOf(pointer)]) if (c !== '' && partShaped(getAt(value, c))) return c;
    return undefined;
  };
  // the item each finding is about, and the one finding that replaces the findings of its item or list
  const replaced = new Map<SchemaStageFinding, string>();
  for (const f of findings) {
    if (f.rule !== rule) continue;
    const item = itemOf(f.pointer);
    if (item === undefined) continue;
    const list = getAt(value, parentOf(item));
    replaced.set(f, Array.isArray(list) && list.every(partShaped) ? parentOf(item) : item);
  }
  if (replaced.size === 0) return findings;
  const told = new Set<string>();
  const out: SchemaStageFinding[] = [];
  for (const f of findings) {
    const at = replaced.get(f);
    if (at === undefined) out.push(f);
    else if (!told.has(at)) {
      told.add(at);
      out.push({ rule, pointer: at, messageId: Array.isArray(getAt(value, at)) ? 'bareList' : 'barePart' });
    }
  }
  return out;
}
