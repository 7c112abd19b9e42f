/** The one home of the small JSON value helpers every layer uses (docs/architecture.md §Shared pieces). */

/** A parsed JSON object. */
export type Obj = Record<string, unknown>;

/** True for a JSON object (not null, not an array). */
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** True when `o` has `k` as its own member (never an inherited one such as `__proto__`). */
export const own = (o: object, k: string): boolean => Object.hasOwn(o, k);
