/**
 * The 64-bit identity keys of the AEP stream state (AEP-0001 §7.4 redelivery vs id reuse;
 * §5.2 emitter-scoped session identity): the digest of an event's canonical content, and the
 * keys of `(source, id)` pairs and other string tuples in the compact tables (src/core/table.ts).
 * Canonical form, digest and key: src/core/canonical.ts.
 */
import { canonicalJson, textKey, type ExactJson, type Hash64 } from '../../core/canonical.ts';

export { canonicalJson, type ExactJson, type Hash64 };

/** The 64-bit digest of an event's canonical content (the first 8 bytes of its SHA-256 digest). */
export function contentHash(ev: ExactJson): Hash64 {
  return textKey(canonicalJson(ev));
}

/** The 64-bit key of an `(source, id)` pair ({@link textKey} of its JSON array). */
export function idKeyHash(source: string, id: string): Hash64 {
  return textKey(JSON.stringify([source, id]));
}

/** The 64-bit key of a tuple of strings ({@link textKey} of its JSON array). */
export function tupleHash(parts: readonly string[]): Hash64 {
  return textKey(JSON.stringify(parts));
}
