/** The one-deny constraint of an intercept result, shared by the schema stage and atomic effect acceptance. */
import { isObj } from '../../core/value.ts';

/**
 * The indexes of the `deny` effects after the first in `effects`: server/tool-interception.md §Effect list ("Multiple
 * `deny` effects from one backend are invalid", AHP-DEC-001), whatever else the list holds.
 */
export function extraDenies(effects: readonly unknown[]): number[] {
  const out: number[] = [];
  let seen = false;
  for (let i = 0; i < effects.length; i++) {
    const e = effects[i];
    if (!isObj(e) || e.type !== 'deny') continue;
    if (seen) out.push(i);
    seen = true;
  }
  return out;
}
