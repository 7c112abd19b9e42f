/**
 * Binary input, told from its first line or kilobyte (after gzip decompression): a file signature, UTF-16 or UTF-32
 * text, or a head of NUL, control and invalid UTF-8 bytes. Such an input is no JSON text (RFC 8259 §8.1: UTF-8), so
 * it is one `jsonl/binary-input` finding, not a parse finding on every "line" its stray newline bytes cut.
 */
import type { MessageArgs } from './message.ts';

/** How many leading bytes are looked at. */
export const SNIFF_BYTES = 1024;
/** Fewest bytes looked at once a newline byte is among them (the longest signature below). */
export const SNIFF_MIN = 16;

/** What {@link sniffBinary} found: the message of `jsonl/binary-input` and its arguments. */
export interface BinarySniff {
  messageId: 'signature' | 'compressed' | 'utf16' | 'binary';
  args: MessageArgs;
}

interface Signature {
  kind: string;
  bytes: readonly number[];
  /** A compressed or archive format: the hint to decompress it (only gzip is read as is). */
  compressed?: boolean;
}

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

// the signatures of common files mistaken for a log (ISO/IEC and vendor specifications of each format)
const SIGNATURES: readonly Signature[] = [
  { kind: 'a PNG image', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { kind: 'a JPEG image', bytes: [0xff, 0xd8, 0xff] },
  { kind: 'a GIF image', bytes: ascii('GIF8') },
  { kind: 'a PDF document', bytes: ascii('%PDF-') },
  { kind: 'an ELF executable', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { kind: 'a SQLite database', bytes: ascii('SQLite format 3\u0000') },
  { kind: 'a ZIP archive', bytes: [0x50, 0x4b, 0x03, 0x04], compressed: true },
  { kind: 'a bzip2 stream', bytes: ascii('BZh'), compressed: true },
  { kind: 'an xz stream', bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], compressed: true },
  { kind: 'a Zstandard stream', bytes: [0x28, 0xb5, 0x2f, 0xfd], compressed: true },
  { kind: 'a 7-Zip archive', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], compressed: true },
];

/** Share of odd bytes (NUL, controls JSON text never holds raw, invalid UTF-8) at or above which a head is binary. */
const ODD_SHARE = 0.1;

const hex = (b: readonly number[] | Buffer): string =>
  [...b].map((x) => x.toString(16).padStart(2, '0').toUpperCase()).join(' ');

/** Whether `head` (the first bytes of an input) looks binary, and how to say so; `undefined` for text. */
export function sniffBinary(head: Buffer): BinarySniff | undefined {
  const n = sniffWindow(head);
  if (n === 0) return undefined;
  for (const s of SIGNATURES) {
    if (n < s.bytes.length || !s.bytes.every((b, i) => head[i] === b)) continue;
    return {
      messageId: s.compressed ? 'compressed' : 'signature',
      args: { kind: s.kind, bytes: hex(s.bytes) },
    };
  }
  const bom = n >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff));
  const bom32 = n >= 4 && head[0] === 0 && head[1] === 0 && head[2] === 0xfe && head[3] === 0xff;
  if (bom || bom32 || wideText(head, n)) return { messageId: 'utf16', args: {} };
  let odd = 0;
  for (let i = 0; i < n; ) {
    const c = head[i]!;
    if (c < 0x80) {
      if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x08) odd++;
      i++;
      continue;
    }
    const len = utf8Length(head, i, n);
    if (len === 0) {
      odd++;
      i++;
    } else i += len;
  }
  // a head shorter than SNIFF_MIN is judged as that many bytes with the rest text, so a tiny input is held to the
  // same rule as a larger one: one stray byte in a 10-byte line is a bad byte (jsonl/invalid-utf8), not a binary file
  if (odd >= ODD_SHARE * Math.max(n, SNIFF_MIN)) return { messageId: 'binary', args: { odd, window: n } };
  return undefined;
}

/**
 * How many bytes of `head` are looked at: through its first newline byte (a live stream is not held past its first
 * line), at least {@link SNIFF_MIN} (every signature), at most {@link SNIFF_BYTES}; the same however it is chunked.
 */
export function sniffWindow(head: Buffer): number {
  const nl = head.subarray(0, SNIFF_BYTES).indexOf(0x0a);
  return Math.min(head.length, nl < 0 ? SNIFF_BYTES : Math.max(nl + 1, SNIFF_MIN));
}

/** UTF-16 text without a byte order mark: printable ASCII at one parity of the bytes, a NUL at the other. */
function wideText(head: Buffer, n: number): boolean {
  if (n < 8) return false;
  const nul = [0, 0];
  const printable = [0, 0];
  for (let i = 0; i < n; i++) {
    const c = head[i]!;
    if (c === 0) nul[i % 2]!++;
    else if ((c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d) printable[i % 2]!++;
  }
  const half = n / 2;
  for (const [zero, text] of [
    [0, 1],
    [1, 0],
  ] as const)
    if (nul[zero]! >= 0.6 * half && nul[text]! <= 0.05 * half && printable[text]! >= 0.7 * half) return true;
  return false;
}

/** The length of the valid UTF-8 sequence at `i` (a sequence cut by the window counts as valid), or 0. */
function utf8Length(b: Buffer, i: number, n: number): number {
  const c = b[i]!;
  const need = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
  if (need < 0) return 0;
  for (let k = 1; k <= need; k++) {
    if (i + k >= n) return n - i;
    if ((b[i + k]! & 0xc0) !== 0x80) return 0;
  }
  return need + 1;
}
