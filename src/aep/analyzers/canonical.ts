/** The 64-bit identity keys of the AEP stream state: an event's content digest and string-tuple keys (src/core/canonical.ts). */
import { canonicalJson, keyWords, pairKey, textKey, type ExactJson, type Hash64 } from '../../core/canonical.ts';
import { sipHashNarrow, sipHi, sipLo } from '../../core/siphash.ts';

export { canonicalJson, type ExactJson, type Hash64 };

/** The 64-bit digest of an event's canonical content ({@link textKey} of its {@link eventText}). */
export function contentHash(ev: ExactJson): Hash64 {
  return textKey(eventText(ev.value, ev.bigIntegers));
}

/**
 * `value` without the attributes that hold their stated default (AEP-0001 §5.1: `epoch` 0, `severity` `info`, `capture`
 * `metadata`) and without an empty `data` at `none` (README: as an absent one), so such copies compare equal.
 */
export function withoutDefaults(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const v = value as Record<string, unknown>;
  const emptyAtNone = v.capture === 'none' && isEmptyObject(v.data);
  if (v.epoch !== 0 && v.severity !== 'info' && v.capture !== 'metadata' && !emptyAtNone) return value;
  const out = { ...v };
  if (emptyAtNone) delete out.data;
  if (out.epoch === 0) delete out.epoch;
  if (out.severity === 'info') delete out.severity;
  if (out.capture === 'metadata') delete out.capture;
  return out;
}

function isEmptyObject(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  for (const _ in v) return false;
  return true;
}

/** The canonical JSON of an event with its defaults applied ({@link withoutDefaults}): what copies are compared by. */
export function eventText(value: unknown, bigIntegers: ExactJson['bigIntegers']): string {
  return canonicalJson({ value: withoutDefaults(value), bigIntegers });
}

/** The 64-bit key of an `(source, id)` pair ({@link pairKey}: the id hashed under a key derived from the source). */
export function idKeyHash(source: string, id: string): Hash64 {
  return pairKey(source, id);
}

/** The 64-bit key of a tuple of strings: {@link textKey} of each part as `<length>:<part>` (injective, as in {@link idKeyHash}). */
export function tupleHash(parts: readonly string[]): Hash64 {
  return textKey(tupleText(parts));
}

function tupleText(parts: readonly string[]): string {
  let text = '';
  for (let i = 0; i < parts.length; i++) text += parts[i].length + ':' + parts[i];
  return text;
}

/**
 * The key words of a tuple: words 1, 0 are its {@link tupleHash}; all four key the tuples that extend it
 * ({@link extendedKey}), so a session's keys hash only what follows `(source, session)`.
 */
export function tupleKeyWords(parts: readonly string[]): Uint32Array {
  return keyWords(tupleText(parts));
}

/**
 * The key of `(tag, ...prefix, last)`: `tag + last` (`tag` one character, so the text is injective) hashed under the
 * prefix's {@link tupleKeyWords} (`w0`-`w3`); a `last` with a code unit >= 256 is keyed as {@link tupleHash} of the tuple.
 */
export function extendedKey(
  w0: number,
  w1: number,
  w2: number,
  w3: number,
  tag: string,
  prefix: readonly string[],
  last: string,
): Hash64 {
  if (sipHashNarrow(tag + last, w0, w1, w2, w3) >= 0) return { hi: sipHi, lo: sipLo };
  return tupleHash([tag, ...prefix, last]);
}
