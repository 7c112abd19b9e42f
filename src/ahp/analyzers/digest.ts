/**
 * Identity digests for the AHP stream rules.
 *
 * {@link valueDigest}: SHA-256 (base64url, 132 bits kept) of the canonical JSON of a value
 * (src/core/canonical.ts: members sorted by name at every level, no insignificant whitespace,
 * integer literals beyond 2^53 with their exact text). Member order and whitespace therefore
 * never decide identity ("original JSON byte formatting is not a wire requirement",
 * interaction-payloads.md); any other difference does.
 *
 * {@link shortHash}: a 32-bit FNV-1a fingerprint for comparing small control fields of two
 * occurrences of the same event (not a security property: it only names which field differs).
 */
import { canonicalJson, digest, fnv32, textKey, type Hash64 } from '../../core/canonical.ts';
import type { BigIntegerLiteral } from '../../core/json.ts';

/**
 * Digest of `value`, which sits at `basePointer` in a line whose big integer literals are
 * `bigIntegers` (their pointers are relative to the line's root): 22 base64url characters
 * (132 bits) of the SHA-256 digest of its canonical JSON. Any nesting depth; never throws for a
 * JSON value.
 */
export function valueDigest(value: unknown, bigIntegers: readonly BigIntegerLiteral[] = [], basePointer = ''): string {
  return Buffer.from(digest(canonicalJson({ value, bigIntegers }, basePointer)))
    .toString('base64url')
    .slice(0, 22);
}

export { fnv32 };

/**
 * The compact table key of `s` (`textKey`, src/core/canonical.ts). No longer remembered: the
 * keyed SipHash costs less than looking a fresh string up in a map of recent ones (which the
 * SHA-256 keys needed).
 */
export function recentKey(s: string): Hash64 {
  return textKey(s);
}

/** The first 64 bits of a base64url digest ({@link valueDigest}) as two unsigned 32-bit words. */
export function digestWords(d: string): [number, number] {
  const b = Buffer.from(d, 'base64url');
  return [b.readUInt32BE(0), b.readUInt32BE(4)];
}

/** A 32-bit FNV-1a fingerprint of `s` ({@link fnv32}), as 8 hex digits. */
export function shortHash(s: string): string {
  return fnv32(s).toString(16).padStart(8, '0');
}
