/** The one home of the small JSON value helpers every layer uses (docs/architecture.md §Shared pieces). */

/** A parsed JSON object. */
export type Obj = Record<string, unknown>;

/** True for a JSON object (not null, not an array). */
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** True when `o` has `k` as its own member (never an inherited one such as `__proto__`). */
export const own = (o: object, k: string): boolean => Object.hasOwn(o, k);

/** Structural equality of two JSON values (keeps unchanged subtrees, and unchanged events, identical). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false;
    if (!sameJson((a as Record<string, unknown>)[ka[i]!], (b as Record<string, unknown>)[kb[i]!])) return false;
  }
  return true;
}
