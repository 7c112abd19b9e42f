/**
 * The validation pipeline: inputs -> JSONL reader -> JSON parse -> protocol checker.
 *
 * docs/architecture.md §Data flow. The protocol checker owns everything after parsing (envelope,
 * overlay/payload, per-event rules, stream rules); this module owns reading, parsing,
 * statistics and the order of inputs. The inputs given to one {@link runPipeline} form one
 * stream, checked in the order given (stream state is shared across them); {@link streamGroups}
 * decides which inputs of a run share a stream.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { Finding, FindingSink } from './finding.ts';
import { DEFAULT_MAX_DEPTH, parseJsonText } from './json.ts';
import { HintHold } from './hint-hold.ts';
import { DEFAULT_MAX_LINE_BYTES, framingFinding, readJsonl, type FramingSpecs, type JsonlLine } from './jsonl.ts';
import { gunzipIfCompressed, type GzipState } from './gzip.ts';
import { RuleCrashError, type ParsedEvent } from './rule.ts';
import { visibleFinding } from './visible.ts';

/** One input to check. */
export interface InputSpec {
  /** Name used in findings (`<stdin>` for standard input). */
  source: string;
  /** Opens the byte stream (called once). May throw/reject on I/O errors. */
  open(): AsyncIterable<Uint8Array | string>;
  /** Total size in bytes when known (for progress). */
  size?: number;
  /**
   * The path of a regular file, for random access: stream rules may read a line back by its
   * byte offset (to compare a repeat with its first occurrence instead of keeping a digest of
   * every line). Absent for standard input, pipes and other streams.
   */
  path?: string;
  /**
   * `jsonl` (default): one message per line. `document`: the whole input is one JSON text
   * (AHP HTTP binding, registration documents); pretty-printing allowed.
   */
  framing?: 'jsonl' | 'document';
}

/** Counters collected during a run (summary statistics). */
export interface RunStats {
  inputs: number;
  bytes: number;
  lines: number;
  /** Lines (or documents) that parsed to a JSON object and reached the protocol checker. */
  events: number;
  /** Event types seen (protocol-defined: AEP `type`, AHP event `type` or method), with counts. */
  types: Map<string, number>;
}

/** Checks parsed events for one protocol; created once per run. */
export interface ProtocolChecker {
  /** One parsed event (a JSON object), in input order. */
  onEvent(event: ParsedEvent): void;
  /** End of all inputs. */
  end(): void;
}

/** Options common to every protocol run. */
export interface PipelineOptions {
  maxLineBytes?: number;
  maxDepth?: number;
  /** Bytes read so far across all inputs, after each chunk. */
  onProgress?: (bytesRead: number) => void;
}

/** A protocol as the pipeline sees it. */
export interface ProtocolDriver {
  name: string;
  /** CR policy of the protocol's JSONL binding. */
  cr: 'accept-crlf' | 'reject';
  /** The protocol's own citations of framing rules (its binding), stamped on their findings. */
  framingSpecs?: FramingSpecs;
  /** When true, `jsonl/not-object` and friends use this protocol's wording (unused hook). */
  createChecker(sink: FindingSink, stats: RunStats): ProtocolChecker;
  /** The sentence naming the framing that would read `text` of `source`, which failed to parse as `framing` (AHP: `--binding`). */
  bindingHint?(text: string, source: string, framing: 'jsonl' | 'document'): string | undefined;
}

/**
 * Parse one line into a {@link ParsedEvent}, reporting `jsonl/invalid-json`,
 * `jsonl/max-depth` and `jsonl/not-object` to `sink`. Duplicate keys are returned on the
 * event (the protocol decides their severity). Returns `undefined` when nothing is left to check.
 */
export function parseLine(line: JsonlLine, sink: FindingSink, maxDepth: number = DEFAULT_MAX_DEPTH): ParsedEvent | undefined {
  const out = parseJsonText(line.text, maxDepth);
  if (!out.ok) {
    const column = out.index + 1;
    const byteOffset = line.byteOffset + Buffer.byteLength(line.text.slice(0, out.index), 'utf8');
    if (out.kind === 'invalid-json') {
      const truncated = line.unterminated && out.index >= line.text.length;
      sink(
        framingFinding(
          'jsonl/invalid-json',
          { source: line.source, line: line.line, column, byteOffset },
          truncated
            ? `Line is not valid JSON: ${out.message} (the last line looks truncated).`
            : /^\s*[[{]\s*$/.test(line.text) || (out.index >= line.text.length && /^\s*[[{]/.test(line.text))
              ? `Line is not valid JSON: ${out.message}; it opens a value that it does not close (a pretty-printed, multi-line value? JSONL carries exactly one JSON value per line).`
              : `Line is not valid JSON: ${out.message}.`,
        ),
      );
    } else {
      sink(
        framingFinding(
          'jsonl/max-depth',
          { source: line.source, line: line.line, column, byteOffset, pointer: out.pointer },
          `Value nests ${out.depth} levels deep, over the limit of ${maxDepth}; the line was not checked further.`,
        ),
      );
    }
    return undefined;
  }
  const v = out.value;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    const kind = v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;
    sink(
      framingFinding(
        'jsonl/not-object',
        { source: line.source, line: line.line, column: 1, byteOffset: line.byteOffset, pointer: '' },
        `Line is ${kind}, not a JSON object; every line must hold one object.`,
      ),
    );
    return undefined;
  }
  if (out.duplicatesOmitted > 0 && out.firstOmitted) {
    // the listed repeats carry the verdict (the protocol reports each); this only says how many more there are
    const d = out.firstOmitted;
    sink(
      framingFinding(
        'json/duplicate-key-omitted',
        { source: line.source, line: line.line, column: d.index + 1, byteOffset: line.byteOffset + Buffer.byteLength(line.text.slice(0, d.index), 'utf8'), pointer: d.pointer },
        `The line repeats member names ${out.duplicates.length + out.duplicatesOmitted} times; ${out.duplicatesOmitted} repeats from here on are counted here and not reported one by one.`,
        { data: { omitted: out.duplicatesOmitted } },
      ),
    );
  }
  return {
    source: line.source,
    line: line.line,
    byteOffset: line.byteOffset,
    text: line.text,
    value: v as Record<string, unknown>,
    duplicates: out.duplicates,
    bigIntegers: out.bigIntegers,
  };
}

/**
 * The line that starts at byte `offset` of `file` (a path, or a file descriptor open for
 * reading), as text without its terminator (LF, or CRLF), or `undefined` when it cannot be
 * read there any more (the file is gone or shorter, the bytes are not UTF-8, or no line end
 * comes within `maxBytes` + 2 bytes). A path is opened and closed per call.
 */
export function readLineAt(file: string | number, offset: number, maxBytes: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = typeof file === 'number' ? file : openSync(file, 'r');
    const limit = maxBytes + 2; // the line, a CR and the LF
    let buf = Buffer.alloc(Math.min(limit, 16384));
    let got = 0;
    for (;;) {
      const n = got < buf.length ? readSync(fd, buf, got, buf.length - got, offset + got) : 0;
      const nl = buf.subarray(got, got + n).indexOf(0x0a);
      got += n;
      let end: number;
      if (nl !== -1) {
        end = got - n + nl;
        if (end > 0 && buf[end - 1] === 0x0d) end--;
      } else if (n === 0 && got < buf.length) {
        end = got; // end of file: the last line has no LF
      } else if (got === buf.length) {
        if (buf.length >= limit) return undefined; // no line end within the cap
        const bigger = Buffer.alloc(Math.min(limit, buf.length * 2));
        buf.copy(bigger, 0, 0, got);
        buf = bigger;
        continue;
      } else continue; // a short read: read on
      if (end > maxBytes) return undefined;
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buf.subarray(0, end));
    }
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined && typeof file !== 'number') closeSync(fd);
  }
}

/** Files read back during a run, each opened once (on first use) and closed at the end. */
class ReadBack {
  private readonly fds = new Map<string, number | null>();

  constructor(private readonly maxBytes: number) {}

  /** {@link readLineAt} for `path`, through a descriptor kept for the run. */
  line(path: string, offset: number): string | undefined {
    let fd = this.fds.get(path);
    if (fd === undefined) {
      try {
        fd = openSync(path, 'r');
      } catch {
        fd = null;
      }
      this.fds.set(path, fd);
    }
    return fd === null ? undefined : readLineAt(fd, offset, this.maxBytes);
  }

  close(): void {
    for (const fd of this.fds.values()) if (fd !== null) closeSync(fd);
    this.fds.clear();
  }
}

/** The `jsonl/gzip-corrupt` finding of a cut or damaged gzip input, at the line it cut. */
function gzipCorrupt(source: string, line: number, c: NonNullable<GzipState['corrupt']>): Finding {
  const cut = c.droppedBytes > 0 ? `; the incomplete line ${line} (${c.droppedBytes} bytes) was not checked` : '';
  return framingFinding(
    'jsonl/gzip-corrupt',
    { source, line, byteOffset: c.decompressedBytes },
    `The gzip stream is truncated or corrupt (zlib: ${c.reason}) after ${c.decompressedBytes} bytes of decompressed text; ${line > 1 ? `${line - 1} complete line${line === 2 ? '' : 's'} before it ${line === 2 ? 'was' : 'were'} checked` : 'no complete line came before it'}${cut}; the rest could not be read.`,
  );
}

/**
 * The streams of a run: each a list of inputs checked together (shared stream state), in input
 * order. `each` true: every input alone (`--each`); false: all inputs one stream; absent, the
 * default per binding: every single-document input (an AHP HTTP body, a registration document)
 * alone, since each is a complete exchange of its own, and the JSONL inputs together as one
 * stream at the place of the first (rotated logs are one log).
 */
export function streamGroups(inputs: readonly InputSpec[], each?: boolean): InputSpec[][] {
  // no input at all is one empty stream, which runPipeline reports (never a clean pass)
  if (inputs.length === 0) return [[]];
  if (each === true) return inputs.map((i) => [i]);
  if (each === false) return [[...inputs]];
  const groups: InputSpec[][] = [];
  let jsonl: InputSpec[] | undefined;
  for (const i of inputs) {
    if (i.framing === 'document') groups.push([i]);
    else if (jsonl) jsonl.push(i);
    else groups.push((jsonl = [i]));
  }
  return groups;
}

/** Add `b` into `a` (the run's totals over several streams). */
export function addStats(a: RunStats, b: RunStats): void {
  a.inputs += b.inputs;
  a.bytes += b.bytes;
  a.lines += b.lines;
  a.events += b.events;
  for (const [t, n] of b.types) a.types.set(t, (a.types.get(t) ?? 0) + n);
}

/** Create empty run statistics. */
export function newStats(): RunStats {
  return { inputs: 0, bytes: 0, lines: 0, events: 0, types: new Map() };
}

/** Thrown when an input cannot be opened or read (exit 2 at the CLI). */
export class InputError extends Error {
  constructor(
    readonly source: string,
    override readonly cause: unknown,
  ) {
    super(`cannot read ${source}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/**
 * The bytes of a whole-document input, or only its length when it is over `cap` bytes (the
 * rest is read and counted, never held: memory stays within the cap).
 */
async function readAll(it: AsyncIterable<Uint8Array | string>, cap: number): Promise<{ buf?: Buffer; length: number }> {
  const parts: Buffer[] = [];
  let length = 0;
  for await (const p of it) {
    const b = typeof p === 'string' ? Buffer.from(p) : Buffer.from(p);
    length += b.length;
    if (length <= cap) parts.push(b);
    else parts.length = 0;
  }
  return length <= cap ? { buf: Buffer.concat(parts), length } : { length };
}

/**
 * Check every input with one protocol checker (one stream, inputs in order).
 * Findings go to `sink` as they are found.
 * @throws InputError when an input cannot be read; RuleCrashError when a rule throws.
 */
export async function runPipeline(
  inputs: readonly InputSpec[],
  driver: ProtocolDriver,
  rawSink: FindingSink,
  opts: PipelineOptions = {},
): Promise<RunStats> {
  const specs = driver.framingSpecs as Readonly<Record<string, string>> | undefined;
  // no message leaves the pipeline with a raw invisible or control character in it; framing
  // findings carry the citation of this protocol's binding (one lookup per finding)
  const sink: FindingSink = specs
    ? (f) => rawSink(visibleFinding(specs[f.ruleId] !== undefined ? { ...f, spec: specs[f.ruleId]! } : f))
    : (f) => rawSink(visibleFinding(f));
  const stats = newStats();
  const checker = driver.createChecker(sink, stats);
  const maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
  let doneBytes = 0;
  const maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const readBack = new ReadBack(maxLineBytes);
  // no input at all (a library call with an empty list) is not a clean pass either
  if (inputs.length === 0) sink(framingFinding('jsonl/empty-input', { source: '<no input>', byteOffset: 0 }, 'No input was given: there is no event to check.'));
  try {
    for (const input of inputs) {
      stats.inputs++;
      if (input.framing === 'document') {
        let doc: { buf?: Buffer; length: number };
        const gz: GzipState = { compressed: false };
        try {
          doc = await readAll(gunzipIfCompressed(input.open(), gz), maxLineBytes);
        } catch (e) {
          throw new InputError(input.source, e);
        }
        stats.bytes += doc.length;
        // a document is one framing unit: the line cap applies to it whole (never a silent pass)
        if (gz.corrupt) sink(gzipCorrupt(input.source, 1, gz.corrupt));
        else if (doc.buf) await checkDocument(input.source, doc.buf, checker, sink, stats, maxDepth, driver.bindingHint && ((t) => driver.bindingHint!(t, input.source, 'document')));
        else sink(framingFinding('jsonl/line-too-long', { source: input.source, line: 1, column: 1, byteOffset: 0 }, `Document is ${doc.length} bytes long, over the cap of ${maxLineBytes} bytes (--max-line-bytes); it was not checked.`));
        doneBytes += doc.length;
        opts.onProgress?.(doneBytes);
        continue;
      }
      const path = input.path;
      const reread = path === undefined ? undefined : (byteOffset: number) => readBack.line(path, byteOffset);
      // An exception from parsing or checking is ours, not the input's: it must not be reported
      // as "cannot read" (RuleCrashError names the rule; anything else is an internal error).
      let ownError: unknown = undefined;
      // an input none of whose lines parse may be what another binding reads (src/core/hint-hold.ts)
      const hold = driver.bindingHint ? new HintHold(sink, (t) => driver.bindingHint!(t, input.source, 'jsonl')) : undefined;
      const onLine = (line: JsonlLine) => {
        try {
          hold?.line(line);
          const ev = parseLine(line, hold?.sink ?? sink, maxDepth);
          if (ev) {
            hold?.release();
            if (reread) ev.reread = reread;
            stats.events++;
            checker.onEvent(ev);
          }
        } catch (e) {
          ownError = e ?? new Error('a checker threw a nullish value');
          throw ownError;
        }
      };
      const base = doneBytes;
      const gz: GzipState = { compressed: false };
      // a cut gzip stream is one finding: not also "empty input" when it broke before any line
      const inputSink: FindingSink = (f) => (gz.corrupt && f.ruleId === 'jsonl/empty-input' ? undefined : (hold?.sink ?? sink)(f));
      try {
        const st = await readJsonl(gunzipIfCompressed(input.open(), gz), input.source, onLine, inputSink, {
          maxLineBytes,
          cr: driver.cr,
          onProgress: opts.onProgress ? (b) => opts.onProgress!(base + b) : undefined,
        });
        hold?.end();
        stats.bytes += st.bytes;
        stats.lines += st.lines;
        doneBytes += st.bytes;
        if (gz.corrupt) sink(gzipCorrupt(input.source, st.lines + 1, gz.corrupt));
      } catch (e) {
        if (e === ownError || e instanceof RuleCrashError) throw e;
        throw new InputError(input.source, e);
      }
    }
  } finally {
    readBack.close();
  }
  checker.end();
  return stats;
}

/**
 * One whole-document input (HTTP binding, registration file): pretty-printing allowed;
 * locations are computed from the document text (line and column of the reported member).
 */
async function checkDocument(source: string, buf: Buffer, checker: ProtocolChecker, sink: FindingSink, stats: RunStats, maxDepth: number, hint?: (text: string) => string | undefined): Promise<void> {
  const lines: JsonlLine[] = [];
  let text: string;
  const dec = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  try {
    text = dec.decode(buf);
  } catch {
    // reuse the JSONL reader's exact UTF-8 diagnostics
    let invalid = false;
    await readJsonl([buf], source, (l) => lines.push(l), (f) => f.ruleId === 'jsonl/invalid-utf8' && ((invalid = true), sink(f)), { maxLineBytes: buf.length });
    // valid UTF-8 that still does not decode: too long for one string (a cap set very high)
    if (!invalid) sink(framingFinding('jsonl/line-too-long', { source, line: 1, column: 1, byteOffset: 0 }, `Document is ${buf.length} bytes long, too long to decode as one text; it was not checked.`));
    return;
  }
  let offset = 0;
  if (text.charCodeAt(0) === 0xfeff) {
    sink(framingFinding('jsonl/bom', { source, line: 1, column: 1, byteOffset: 0 }, 'Input starts with a UTF-8 byte order mark (EF BB BF); JSON text must not begin with one. The mark was skipped and the rest of the document checked.'));
    text = text.slice(1);
    offset = 3;
  }
  if (text.trim() === '') {
    sink(framingFinding('jsonl/empty-input', { source, byteOffset: 0 }, 'Input is empty: there is no message to check.'));
    return;
  }
  stats.lines += text.split('\n').length;
  // a parse failure of a text that another binding reads says which (ProtocolDriver.bindingHint)
  const hinted = (f: Finding): Finding => {
    const sentence = f.ruleId === 'jsonl/invalid-json' ? hint?.(text) : undefined;
    return sentence ? { ...f, message: `${f.message} ${sentence}` } : f;
  };
  const ev = parseLine({ source, line: 1, byteOffset: offset, text, byteLength: buf.length - offset, unterminated: false }, (f: Finding) => sink(relocate(hinted(f), text, offset)), maxDepth);
  if (!ev) return;
  stats.events++;
  checker.onEvent(ev);
}

/** Turn a single-line location (column = index + 1 in a multi-line document) into line/column. */
function relocate(f: Finding, text: string, offset: number): Finding {
  if (f.column === undefined) return f;
  const idx = f.column - 1;
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < idx; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { ...f, line, column: idx - lineStart + 1, byteOffset: offset + Buffer.byteLength(text.slice(0, idx), 'utf8') };
}
