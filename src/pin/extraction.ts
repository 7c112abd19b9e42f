/**
 * The header-insensitive comparison of a committed extraction with a pinned schema.json's (AHP-PIN-01): the expected
 * text uses the committed file's own header (ours when it has none) and must equal the committed bytes.
 */
import { ELICITATION_HEADER, extractElicitation, headerOf } from './extract.ts';
import { decodeUtf8, sha256Hex } from './model.ts';

/** The expected extraction text and where its header came from. */
export interface ExpectedExtraction {
  text: string;
  header: 'committed' | 'default';
}

/** Extract `schemaJson` under `committed`'s header. @throws TypeError, SyntaxError or ExtractionError. */
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
