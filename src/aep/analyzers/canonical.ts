/** The 64-bit identity keys of the AEP stream state: an event's content digest and string-tuple keys (src/core/canonical.ts). */
import { canonicalJson, pairKey, textKey, type ExactJson, type Hash64 } from '../../core/canonical.ts';

export { canonicalJson, type ExactJson, type Hash64 };

/** The 64-bit digest of an event's canonical content ({@link textKey} of its canonical JSON). */
export function contentHash(ev: ExactJson): Hash64 {
  return textKey(canonicalJson(ev));
}

/** The 64-bit key of an `(source, id)` pair ({@link pairKey}: the id hashed under a key derived from the source). */
export function idKeyHash(source: string, id: string): Hash64 {
  return pairKey(source, id);
}

/** The 64-bit key of a tuple of strings: {@link textKey} of each part as `<length>:<part>` (injective, as in {@link idKeyHash}). */
export function tupleHash(parts: readonly string[]): Hash64 {
  let text = '';
  for (let i = 0; i < parts.length; i++) text += parts[i].length + ':' + parts[i];
  return textKey(text);
}
