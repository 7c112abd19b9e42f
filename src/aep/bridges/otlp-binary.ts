/**
 * `--from otlp` inputs in the binary protobuf encoding (OTLP §OTLP/HTTP, "Binary Protobuf Encoding"), told from their
 * first bytes: one ExportLogsServiceRequest (an OTLP/HTTP request body), or the OpenTelemetry Collector file
 * exporter's `format: proto` file, whose README (§File Format) says "each encoded object is preceded by 4 bytes (an
 * unsigned 32 bit integer) which represent the number of bytes contained in the encoded object" (big-endian, as its
 * file_writer.go writes it). Each message is handed on as the line record of its OTLP/JSON rendering.
 */
import { framingFinding } from '../../core/framing.ts';
import { sniffBinary, SNIFF_BYTES, SNIFF_MIN } from '../../core/binary.ts';
import type { BinaryEncoding } from '../../core/protocol.ts';
import { decodeOtlpProtobuf } from './otlp-proto.ts';

/** The tag of ExportLogsServiceRequest field 1 (resource_logs), length-delimited: (1 << 3) | 2. */
const RESOURCE_LOGS_TAG = 0x0a;
const PREFIX = 4;

const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/**
 * What an `--from otlp` input starting with `head` is: `'request'` (one protobuf request: first byte 0x0A and not JSON
 * text after blank lines), `'framed'` (first byte 0x00: a big-endian length prefix of a message under 16 MiB, where
 * JSON text and a protobuf tag never start; UTF-16 text aside), `'text'` (anything else: the JSON readers), `undefined`
 * while more bytes may come and are needed to tell.
 */
export function otlpInputKind(head: Buffer, ended: boolean): 'request' | 'framed' | 'text' | undefined {
  if (head.length === 0) return ended ? 'text' : undefined;
  // UTF-16 big-endian JSON starts with 0x00 too: its own finding (jsonl/binary-input) says what it is
  if (head[0] === 0x00) {
    if (head.length < SNIFF_MIN && !ended) return undefined;
    if (sniffBinary(head)?.messageId === 'utf16') return 'text';
    // the first message that is not empty starts with the resource_logs tag; NUL bytes alone (/dev/zero) are no
    // frames, so they stay one jsonl/binary-input and are not read forever
    for (let at = 0; at + PREFIX <= head.length; at += PREFIX) {
      if (head.readUInt32BE(at) === 0) continue;
      if (at + PREFIX < head.length) return head[at + PREFIX] === RESOURCE_LOGS_TAG ? 'framed' : 'text';
      break;
    }
    return ended || head.length >= SNIFF_BYTES ? 'text' : undefined;
  }
  if (head[0] !== RESOURCE_LOGS_TAG) return 'text';
  let i = 0;
  while (i < head.length && isSpace(head[i]!)) i++;
  // a whole first line that is a JSON object or array: text at once (a live stream is not held to SNIFF_BYTES)
  // (before the control bytes: a later line of broken JSON text is still text)
  const end = head.indexOf(0x0a, i);
  if (end > i) {
    try {
      const v: unknown = JSON.parse(head.subarray(i, end).toString('utf8'));
      if (typeof v === 'object' && v !== null) return 'text';
    } catch {
      // not yet known: more bytes decide
    }
  }
  // JSON text holds no control byte but whitespace; a request holds one (a tag or a length under 0x20) within its
  // first bytes
  for (let k = i; k < head.length; k++) if (head[k]! < 0x20 && !isSpace(head[k]!)) return 'request';
  return ended || head.length >= SNIFF_BYTES ? 'text' : undefined;
}

/** The {@link BinaryEncoding} of `--from otlp`: OTLP protobuf requests, alone or length-prefixed. */
export const OTLP_PROTOBUF: BinaryEncoding = {
  detect(head, ended) {
    const k = otlpInputKind(head, ended);
    return k === undefined ? undefined : k !== 'text';
  },
  async read(input, source, onLine, sink, maxBytes) {
    const bytes = new Chunks();
    let total = 0;
    let framed: boolean | undefined;
    let messages = 0;
    // a request is the whole input: its bytes are held (up to the cap); frames are handed on as each completes
    let over = false;
    const message = async (buf: Buffer, start: number) => {
      messages++;
      const d = decodeOtlpProtobuf(buf);
      if (!d.ok) {
        const { offset, messageId, args } = d.problem;
        const at = { source, line: messages, byteOffset: start + offset };
        const f = framingFinding('jsonl/invalid-protobuf', at, messageId, {
          ...args,
          number: messages,
          bytes: buf.length,
          start,
          offset: start + offset,
          after: framed ? ' (in a length-prefixed file, the messages after it still are)' : '',
        });
        // one OTLP/HTTP request body: the Collector file framing has no part in it
        sink(framed ? f : { ...f, spec: 'OTLP §Binary Protobuf Encoding' });
        return;
      }
      const text = JSON.stringify(d.request);
      await onLine({
        source,
        line: messages,
        byteOffset: start,
        text,
        byteLength: buf.length,
        unterminated: false,
        binary: true,
      });
    };
    const tooLong = (length: number, start: number) => {
      messages++;
      sink(
        framingFinding('jsonl/line-too-long', { source, line: messages, byteOffset: start }, 'protobuf', {
          number: messages,
          bytes: length,
          cap: maxBytes,
        }),
      );
    };
    // the frame being read: its start (after the prefix), length, and the bytes of it still to skip when over the cap
    let frame: { start: number; length: number; skip: boolean } | undefined;
    for await (const piece of input) {
      const b = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.from(piece);
      if (framed === undefined && b.length > 0) framed = b[0] === 0x00;
      total += b.length;
      if (!framed) {
        if (!over && total <= maxBytes) bytes.push(b);
        else if (!over) {
          over = true;
          bytes.clear();
        }
        continue;
      }
      bytes.push(b);
      // every whole frame in what has come so far
      for (;;) {
        if (!frame) {
          if (bytes.length < PREFIX) break;
          const prefix = bytes.take(PREFIX);
          const length = prefix.readUInt32BE(0);
          frame = { start: bytes.offset, length, skip: length > maxBytes };
          if (frame.skip) tooLong(length, frame.start - PREFIX);
        }
        if (frame.skip) {
          const n = Math.min(bytes.length, frame.start + frame.length - bytes.offset);
          bytes.drop(n);
          if (bytes.offset < frame.start + frame.length) break;
          frame = undefined;
          continue;
        }
        if (bytes.length < frame.length) break;
        const buf = bytes.take(frame.length);
        const start = frame.start;
        frame = undefined;
        await message(buf, start);
      }
    }
    if (!framed) {
      if (over) {
        messages++;
        sink(
          framingFinding('jsonl/line-too-long', { source, line: 1, byteOffset: 0 }, 'protobuf', {
            number: 1,
            bytes: total,
            cap: maxBytes,
          }),
        );
      } else if (total > 0) await message(bytes.take(bytes.length), 0);
      return { bytes: total, messages };
    }
    // what is left: a cut prefix or a cut message (a file copied while the exporter wrote it)
    if (frame && !frame.skip)
      sink(
        framingFinding(
          'jsonl/invalid-protobuf',
          { source, line: messages + 1, byteOffset: frame.start - PREFIX },
          'frameCut',
          {
            start: frame.start - PREFIX,
            length: frame.length,
            bytes: bytes.length,
          },
        ),
      );
    else if (!frame && bytes.length > 0)
      sink(
        framingFinding(
          'jsonl/invalid-protobuf',
          { source, line: messages + 1, byteOffset: bytes.offset },
          'prefixCut',
          {
            start: bytes.offset,
            bytes: bytes.length,
          },
        ),
      );
    return { bytes: total, messages };
  },
};

/** A queue of byte chunks read from the front, with the input offset of its first byte. */
class Chunks {
  private parts: Buffer[] = [];
  /** Bytes held. */
  length = 0;
  /** The input offset of the first byte held. */
  offset = 0;

  push(b: Buffer): void {
    if (b.length === 0) return;
    this.parts.push(b);
    this.length += b.length;
  }

  clear(): void {
    this.offset += this.length;
    this.parts = [];
    this.length = 0;
  }

  /** The first `n` bytes (n <= length), removed. */
  take(n: number): Buffer {
    const first = this.parts[0];
    let out: Buffer;
    if (first && first.length >= n) {
      out = first.subarray(0, n);
      this.cut(n);
      return out;
    }
    out = Buffer.allocUnsafe(n);
    let got = 0;
    while (got < n) {
      const p = this.parts[0]!;
      const k = Math.min(p.length, n - got);
      p.copy(out, got, 0, k);
      got += k;
      this.cut(k);
    }
    return out;
  }

  /** Drop the first `n` bytes (n <= length). */
  drop(n: number): void {
    while (n > 0) {
      const k = Math.min(this.parts[0]!.length, n);
      this.cut(k);
      n -= k;
    }
  }

  private cut(k: number): void {
    const p = this.parts[0]!;
    if (k === p.length) this.parts.shift();
    else this.parts[0] = p.subarray(k);
    this.length -= k;
    this.offset += k;
  }
}
