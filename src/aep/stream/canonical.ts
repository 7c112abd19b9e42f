/**
 * The 64-bit identity keys of the AEP stream state (AEP-0001 §7.4 redelivery vs id reuse;
 * §5.2 emitter-scoped session identity): the digest of an event's canonical content, and the
 * keys of `(source, id)` pairs and other string tuples in the compact tables (id-table.ts,
 * marker-table.ts). Canonical form and digest: src/core/canonical.ts.
 */
import { canonicalJson, digest, type ExactJson } from '../../core/canonical.ts';
import { hash64, type Hash64 } from './id-table.ts';

export { canonicalJson, type ExactJson };

/** The 64-bit digest of an event's canonical content (the first 8 bytes of its SHA-256 digest). */
export function contentHash(ev: ExactJson): Hash64 {
  return hash64(digest(canonicalJson(ev)));
}

/** The 64-bit key of an `(source, id)` pair (the first 8 bytes of a SHA-256 digest). */
export function idKeyHash(source: string, id: string): Hash64 {
  return hash64(digest(JSON.stringify([source, id])));
}

/** The 64-bit key of a tuple of strings (the first 8 bytes of the SHA-256 digest of its JSON array). */
export function tupleHash(parts: readonly string[]): Hash64 {
  return hash64(digest(JSON.stringify(parts)));
}
