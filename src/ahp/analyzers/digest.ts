/**
 * Identity digests: canonical-JSON SHA-256 ("original JSON byte formatting is not a wire requirement"), and FNV-1a
 * fingerprints that only name which control field differs.
 */
import { canonicalJson, digest, fnv32, textKey, type Hash64 } from '../../core/canonical.ts';
import { sipHash, sipHi, sipLo } from '../../core/siphash.ts';
import type { BigIntegerLiteral } from '../../core/json.ts';

/** Digest of `value` at `basePointer` of a line with `bigIntegers`. */
export function valueDigest(value: unknown, bigIntegers: readonly BigIntegerLiteral[] = [], basePointer = ''): string {
  return Buffer.from(digest(canonicalJson({ value, bigIntegers }, basePointer)))
    .toString('base64url')
    .slice(0, 22);
}

export { fnv32 };

/** The compact table key of `s` (`textKey`, src/core/canonical.ts). */
export function recentKey(s: string): Hash64 {
  return textKey(s);
}

/**
 * A keyed 64-bit key of `value`'s canonical JSON (SipHash, src/core/siphash.ts) as two words: for values compared
 * only with other keys of this process, at a fraction of a SHA-256 call.
 */
export function valueWords(value: unknown): [number, number] {
  sipHash(canonicalJson({ value, bigIntegers: [] }));
  return [sipHi, sipLo];
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
