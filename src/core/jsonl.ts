/**
 * The JSONL reader of both protocols (AEP-0003 §3.1, AHP stdio): physical lines with exact locations and framing
 * findings. Memory: the chunk plus the longest accepted line; the rest of an over-long line is skipped.
 */
import { isUtf8 } from 'node:buffer';
import type { FindingSink } from './finding.ts';
import { framingFinding } from './framing.ts';
import { SNIFF_BYTES, SNIFF_MIN, sniffBinary } from './binary.ts';

export {
  framingFinding,
  framingRules,
  JSONL_RULES,
  type FramingSpecs,
  type JsonlRuleId,
} from './framing.ts';

/** Default cap on one line, in bytes (16 MiB). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** One physical line handed to a protocol. */
export interface JsonlLine {
  source: string;
  line: number;
  byteOffset: number;
  /** The decoded line without its terminator (`\n`, or `\r\n` when CRLF is accepted). */
  text: string;
  byteLength: number;
  /** True when this is the last line and no newline terminated it. */
  unterminated: boolean;
  /**
   * True when `text` is the JSON rendering of a binary message (OTLP protobuf), not the input's own text: findings
   * then name the message's byte offset and no column (`line` is the message's number in the input).
   */
  binary?: boolean;
}

/** Reader options. */
export interface JsonlReaderOptions {
  /** Cap on a line's length in bytes; longer lines get `jsonl/line-too-long`. */
  maxLineBytes?: number;
  /** `'accept-crlf'` (AEP): CRLF ends a line, a lone CR is text; `'reject'` (AHP stdio): `jsonl/carriage-return`. */
  cr?: 'accept-crlf' | 'reject';
  onProgress?: (bytesRead: number) => void;
}

/** Index of the first invalid UTF-8 byte in `b` (assumes at least one exists). */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = c & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return n;
}

/** Statistics the reader returns for one input. */
export interface JsonlReadStats {
  bytes: number;
  lines: number;
  /** Lines handed to `onLine` (non-blank, decodable, within the cap). */
  candidates: number;
}

/** Read `input` as JSONL: `onLine` per usable line, framing findings to `sink`; rejects only on I/O errors. */
export async function readJsonl(
  input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  source: string,
  onLine: (line: JsonlLine) => void,
  sink: FindingSink,
  opts: JsonlReaderOptions = {},
): Promise<JsonlReadStats> {
  const maxLine = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const rejectCR = opts.cr === 'reject';
  let lineNo = 0;
  let candidates = 0;
  let blanks = 0;
  let total = 0; // bytes consumed before the current chunk
  let carry: Buffer[] | null = null; // pieces of the current unfinished line
  let carryLen = 0;
  let carryOffset = 0; // byte offset of carry[0]
  let skipping = false; // inside an over-long line: discard until newline
  // the over-long line being skipped: its finding waits for its end, so it gives the length as every route does
  let skipped = { line: 0, offset: 0, bytes: 0, lastCR: false };
  const skippedLine = (terminated: boolean): void => {
    // as a line within the cap is measured: without its terminator (a CRLF's CR too, where the binding accepts CRLF)
    const bytes = skipped.bytes - (terminated && !rejectCR && skipped.lastCR ? 1 : 0);
    sink(
      framingFinding(
        'jsonl/line-too-long',
        { source, line: skipped.line, column: 1, byteOffset: skipped.offset },
        'line',
        { bytes, cap: maxLine },
      ),
    );
  };
  // the first bytes, held until SNIFF_BYTES are seen (a BOM or a file signature may span chunks)
  let head: Buffer[] | null = [];
  let headLen = 0;
  let headNewline = false;
  let binary = false; // a binary input is one jsonl/binary-input; reading stops there

  const frame: LineFrame = { source, line: 0, byteOffset: 0, terminated: true, rejectCR, sink };
  /** `checked`: the bytes are already known to be valid UTF-8 (their chunk region was checked at once). */
  const emitLine = (
    buf: Buffer,
    start: number,
    end: number,
    offset: number,
    terminated: boolean,
    checked = false,
  ): void => {
    lineNo++;
    let stop = end;
    if (!rejectCR && terminated && stop > start && buf[stop - 1] === 0x0d) stop--;
    if (stop - start > maxLine) {
      sink(
        framingFinding('jsonl/line-too-long', { source, line: lineNo, column: 1, byteOffset: offset }, 'line', {
          bytes: stop - start,
          cap: maxLine,
        }),
      );
      return;
    }
    const bytes = checked ? undefined : buf.subarray(start, stop);
    if (bytes && !isUtf8(bytes)) {
      // the two decoders agree (a property test holds them to it); never index past the end
      const bad = Math.min(firstInvalidUtf8(bytes), bytes.length - 1);
      const prefix = bytes.subarray(0, bad).toString('utf8');
      sink(
        framingFinding(
          'jsonl/invalid-utf8',
          { source, line: lineNo, column: prefix.length + 1, byteOffset: offset + bad },
          'invalid',
          { offset: offset + bad, byte: bytes[bad]!.toString(16).padStart(2, '0') },
        ),
      );
      return;
    }
    // one frame for the whole input, its place set a line (no object made a line)
    frame.line = lineNo;
    frame.byteOffset = offset;
    frame.terminated = terminated;
    const framed = frameLineText(buf.toString('utf8', start, stop), stop - start, frame);
    if (framed === undefined) {
      blanks++;
      return;
    }
    candidates++;
    onLine(framed);
  };

  const checkBom = (chunk: Buffer): Buffer => {
    if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
      sink(framingFinding('jsonl/bom', { source, line: 1, column: 1, byteOffset: 0 }, 'input'));
      return chunk.subarray(3);
    }
    return chunk;
  };

  /** Read the lines of `chunk`, whose first byte is at `base`. */
  const feed = (chunk: Buffer, base: number): void => {
    let pos = 0;
    // UTF-8 is checked per region of whole lines (a newline byte never sits inside a multi-byte sequence); -1:
    // undecided.
    let regionEnd = -1;
    let regionValid = false;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(0x0a, pos);
      if (skipping) {
        const end = nl === -1 ? chunk.length : nl;
        skipped.bytes += end - pos;
        if (end > pos) skipped.lastCR = chunk[end - 1] === 0x0d;
        if (nl === -1) {
          pos = chunk.length;
          break;
        }
        skipping = false;
        skippedLine(true);
        pos = nl + 1;
        continue;
      }
      if (nl === -1) {
        const restLen = chunk.length - pos + carryLen;
        if (restLen > maxLine + 1) {
          // Over the cap with no newline in sight: drop what we hold and skip on; reported at the line's end
          lineNo++;
          skipped = {
            line: lineNo,
            offset: carry ? carryOffset : base + pos,
            bytes: restLen,
            lastCR: chunk[chunk.length - 1] === 0x0d,
          };
          carry = null;
          carryLen = 0;
          skipping = true;
          pos = chunk.length;
          break;
        }
        // copy: the stream may reuse its buffer
        if (carry) carry.push(Buffer.from(chunk.subarray(pos)));
        else {
          carry = [Buffer.from(chunk.subarray(pos))];
          carryOffset = base + pos;
        }
        carryLen += chunk.length - pos;
        pos = chunk.length;
        break;
      }
      if (carry) {
        carry.push(chunk.subarray(pos, nl));
        const whole = Buffer.concat(carry);
        const off = carryOffset;
        carry = null;
        carryLen = 0;
        emitLine(whole, 0, whole.length, off, true);
      } else {
        if (regionEnd === -1) {
          regionEnd = chunk.lastIndexOf(0x0a);
          regionValid = isUtf8(chunk.subarray(pos, regionEnd));
        }
        emitLine(chunk, pos, nl, base + pos, true, regionValid);
      }
      pos = nl + 1;
    }
  };

  /** The held head, sniffed for binary and a BOM; then read as the first chunk. */
  const startWith = (whole: Buffer): void => {
    head = null;
    const sniff = sniffBinary(whole);
    if (sniff) {
      binary = true;
      sink(
        framingFinding(
          'jsonl/binary-input',
          { source, line: 1, column: 1, byteOffset: 0 },
          sniff.messageId,
          sniff.args,
        ),
      );
      return;
    }
    const rest = checkBom(whole);
    if (rest.length) feed(rest, whole.length - rest.length);
  };

  for await (const piece of input) {
    const chunk =
      typeof piece === 'string'
        ? Buffer.from(piece, 'utf8')
        : Buffer.isBuffer(piece)
          ? piece
          : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    const base = total; // offset of chunk[0]
    total += chunk.length;
    if (chunk.length === 0) continue;
    if (head) {
      // a live stream is not held past its first line: sniffed once a line and any signature are in (SNIFF_MIN)
      headNewline ||= chunk.includes(0x0a);
      const ready = headLen + chunk.length >= (headNewline ? SNIFF_MIN : SNIFF_BYTES);
      if (ready && head.length === 0) startWith(chunk);
      else {
        // copy: the stream may reuse its buffer
        head.push(Buffer.from(chunk));
        headLen += chunk.length;
        if (ready) startWith(Buffer.concat(head));
      }
    } else feed(chunk, base);
    opts.onProgress?.(total);
    // decided on its first bytes: the rest is not read (an endless device or pipe would never end the run)
    if (binary) break;
  }
  if (head && headLen > 0) startWith(head.length === 1 ? head[0]! : Buffer.concat(head));
  if (binary) return { bytes: total, lines: 0, candidates: 0 };
  if (carry && !skipping) {
    const whole = Buffer.concat(carry);
    emitLine(whole, 0, whole.length, carryOffset, false);
    const last = lineNo;
    sink(framingFinding('jsonl/no-final-newline', { source, line: last, byteOffset: total }, 'checked'));
  } else if (skipping) {
    skippedLine(false);
    sink(framingFinding('jsonl/no-final-newline', { source, line: lineNo, byteOffset: total }, 'skipped'));
  }
  // a line that is there but unreadable has its own finding, which names the cause (README §Decisions on unreadable lines)
  const onlyBlank = candidates === 0 && blanks === lineNo;
  // input of a BOM alone: that is line 1 (the BOM finding names it)
  if (lineNo === 0 && total > 0) lineNo = 1;
  if (onlyBlank) {
    sink(
      framingFinding(
        'jsonl/empty-input',
        { source, line: lineNo > 0 ? lineNo : undefined, byteOffset: total },
        total === 0 ? 'empty' : 'noEvent',
      ),
    );
  }
  return { bytes: total, lines: lineNo, candidates };
}

/** Where a decoded line sits, for {@link frameLineText}. */
export interface LineFrame {
  source: string;
  line: number;
  byteOffset: number;
  /** A newline ended it (a CR before it is then a CRLF). */
  terminated: boolean;
  /** The binding allows no CR in a line (AHP stdio). */
  rejectCR: boolean;
  sink: FindingSink;
}

/**
 * The framing of one decoded line, for every route that has lines (the reader, a session's events): a CR the binding
 * refuses, a BOM at its start (reported and skipped: RFC 8259 §8.1; at line 1 it is the input's), a blank line. The
 * line past a BOM, or `undefined` for a blank line (reported).
 */
export function frameLineText(text: string, byteLength: number, at: LineFrame): JsonlLine | undefined {
  const { source, line: lineNo, sink } = at;
  let offset = at.byteOffset;
  if (at.rejectCR) {
    const cr = text.indexOf('\r');
    if (cr !== -1) {
      const crlf = cr === text.length - 1 && at.terminated;
      sink(
        framingFinding(
          'jsonl/carriage-return',
          { source, line: lineNo, column: cr + 1, byteOffset: offset + Buffer.byteLength(text.slice(0, cr)) },
          crlf ? 'crlf' : 'cr',
        ),
      );
      if (text.endsWith('\r')) {
        text = text.slice(0, -1);
        byteLength--;
      }
    }
  }
  if (text.charCodeAt(0) === 0xfeff) {
    // after the first bytes (the reader takes those off first): two inputs concatenated (`cat a.jsonl b.jsonl`)
    sink(
      framingFinding(
        'jsonl/bom',
        { source, line: lineNo, column: 1, byteOffset: offset },
        offset === 0 ? 'input' : 'laterLine',
      ),
    );
    text = text.slice(1);
    offset += 3;
    byteLength -= 3;
  }
  if (isBlank(text)) {
    sink(
      framingFinding(
        'jsonl/blank-line',
        { source, line: lineNo, column: 1, byteOffset: offset },
        text.length === 0 ? 'empty' : 'whitespace',
      ),
    );
    return undefined;
  }
  // members in JsonlLine's order, as every line of every route is made (one object shape downstream)
  return { source, line: lineNo, byteOffset: offset, text, byteLength, unterminated: !at.terminated };
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}
