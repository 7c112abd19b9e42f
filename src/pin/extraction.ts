/**
 * The header-insensitive comparison between a committed extraction and the extraction of a
 * pinned `schema.json`, shared by `pin verify` and `pin refresh`.
 *
 * The header (every top-level member except `$defs`) belongs to the file that carries it: the
 * expected text is the extraction rendered with the committed file's own header, and it must
 * equal the committed bytes exactly. A file that does not exist or is not a JSON object gets
 * our own header ({@link ELICITATION_HEADER}).
 *
 * Spec: AHP interaction-payloads §Pinned upstream maintenance (AHP-PIN-01).
 */
import { ELICITATION_HEADER, extractElicitation, headerOf } from './extract.ts';
import { decodeUtf8, sha256Hex } from './model.ts';

/** The expected extraction text and where its header came from. */
export interface ExpectedExtraction {
  text: string;
  header: 'committed' | 'default';
}

/**
 * Extract from `schemaJson` bytes using the header of `committed` when that is a JSON object.
 * @throws TypeError (invalid UTF-8), SyntaxError (not JSON) or ExtractionError (see
 * `extractElicitation`) for the schema bytes.
 */
export function expectedExtraction(schemaJson: Uint8Array, committed?: Uint8Array): ExpectedExtraction {
  let header: Record<string, unknown> | undefined;
  if (committed) {
    try {
      header = headerOf(decodeUtf8(committed));
    } catch {
      header = undefined;
    }
  }
  const text = extractElicitation(decodeUtf8(schemaJson), header ?? ELICITATION_HEADER);
  return { text, header: header ? 'committed' : 'default' };
}

/** The 1-based number of the first line where `a` and `b` differ, or 0 when equal. */
function firstDifferentLine(a: string, b: string): number {
  if (a === b) return 0;
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) if (la[i] !== lb[i]) return i + 1;
  return Math.max(la.length, lb.length);
}

/** Details of a mismatch for a finding's `data`: first differing line and both digests. */
export function mismatchData(
  expected: string,
  actual: Uint8Array,
): { line: number; expectedSha256: string; actualSha256: string } {
  let actualText: string;
  try {
    actualText = decodeUtf8(actual);
  } catch {
    actualText = '';
  }
  return {
    line: firstDifferentLine(expected, actualText),
    expectedSha256: sha256Hex(expected),
    actualSha256: sha256Hex(actual),
  };
}

/** True when `committed` holds exactly the bytes of `expected` (UTF-8). */
export function sameBytes(expected: string, committed: Uint8Array): boolean {
  return Buffer.from(expected, 'utf8').equals(
    Buffer.from(committed.buffer, committed.byteOffset, committed.byteLength),
  );
}
