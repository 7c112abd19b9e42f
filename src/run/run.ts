/**
 * The run: the one orchestration of every entry (docs/architecture.md §The run); entries differ only in their RunHooks.
 */
import { closeSync, openSync } from 'node:fs';
import type { Finding, FindingSink } from '../core/finding.ts';
import { gunzipIfCompressed, type GzipState } from '../core/gzip.ts';
import { framingFinding, type FramingMessageId } from '../core/framing.ts';
import { type BinarySniff, SNIFF_BYTES, sniffBinary } from '../core/binary.ts';
import { DEFAULT_MAX_LINE_BYTES, readJsonl, type JsonlLine } from '../core/jsonl.ts';
import { addStats, InputError, newStats, readLineAt, streamGroups, type InputSpec } from '../core/pipeline.ts';
import { RuleCrashError } from '../core/rule.ts';
import { HintHold } from '../core/hint-hold.ts';
import { ReadSpool } from '../core/read-spool.ts';
import type { BinaryEncoding, ProtocolDefinition, ProtocolOptions } from '../core/protocol.ts';
import { jsonLines, StreamCheck } from './stream-check.ts';
import { counterOf, type RunHooks, type RunOptions, type RunResult, RunStopped } from './run-api.ts';

export { EventStream } from './event-stream.ts';
export {
  exitCodeOf,
  type RunHooks,
  type RunOptions,
  type RunResult,
  RunStopped,
  tallyFindings,
} from './run-api.ts';

export { StreamCheck } from './stream-check.ts';

/** Files read back during a run, each opened once (on first use) and closed at the end. */
class ReadBack {
  private readonly fds = new Map<string, number | null>();

  constructor(private readonly maxBytes: number) {}

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

/** The `jsonl/gzip-corrupt` finding of a cut or damaged gzip input, at the line it cut (after the last, if none). */
function gzipCorrupt(source: string, line: number, c: NonNullable<GzipState['corrupt']>, document = false): Finding {
  const cut = c.droppedBytes > 0;
  const complete = line - 1;
  const count = complete === 0 ? 'NoLine' : complete === 1 ? 'OneLine' : 'Lines';
  const messageId = c.trailing
    ? document
      ? 'trailingDocument'
      : `trailing${count}`
    : `${count[0]!.toLowerCase()}${count.slice(1)}${cut ? 'Cut' : ''}`;
  return framingFinding(
    'jsonl/gzip-corrupt',
    { source, line, byteOffset: c.decompressedBytes },
    messageId as FramingMessageId<'jsonl/gzip-corrupt'>,
    // all the text decompressed, the incomplete line included: "after N bytes" and "line (M bytes)" agree
    { reason: c.reason, bytes: c.decompressedBytes + c.droppedBytes, complete, line, dropped: c.droppedBytes },
  );
}

/** A document input's bytes, or only its length when over `cap` (the rest is counted, never held). */
async function readAll(
  it: AsyncIterable<Uint8Array | string>,
  cap: number,
): Promise<{ buf?: Buffer; length: number; binary?: BinarySniff }> {
  const parts: Buffer[] = [];
  let length = 0;
  let sniffed = false;
  for await (const p of it) {
    const b = typeof p === 'string' ? Buffer.from(p) : Buffer.from(p);
    length += b.length;
    if (length <= cap) parts.push(b);
    else parts.length = 0;
    // decided on the first bytes, as the JSONL reader decides: a binary source is not read to its end (or forever)
    if (!sniffed && length >= SNIFF_BYTES && parts.length) {
      sniffed = true;
      const binary = sniffBinary(Buffer.concat(parts).subarray(0, SNIFF_BYTES));
      if (binary) return { length, binary };
    }
  }
  return length <= cap ? { buf: Buffer.concat(parts), length } : { length };
}

/**
 * Feed one stream's inputs to `check` in order. Every input gets `reread`: an uncompressed regular file is read back
 * itself; any other byte source (stdin, a pipe, a gzip input's decompressed text, a library stream) through a
 * {@link ReadSpool} of its bytes, so every route costs what a file costs. Where no spool can be made, analyzers keep
 * digests instead, with the same verdicts. @throws InputError.
 */
async function feed(
  check: StreamCheck,
  inputs: readonly InputSpec[],
  maxLineBytes: number,
  onBytes: ((bytes: number) => void) | undefined,
  ready: RunHooks['ready'],
): Promise<number> {
  const sink = check.findingSink;
  const stats = check.stats;
  const readBack = new ReadBack(maxLineBytes);
  // kept open to the end of the stream: a repeat in a later input reads an earlier input's line back
  const spools: (ReadSpool | undefined)[] = [];
  let done = 0;
  if (inputs.length === 0)
    sink(framingFinding('jsonl/empty-input', { source: '<no input>', byteOffset: 0 }, 'noInput'));
  try {
    for (const input of inputs) {
      stats.inputs++;
      const gz: GzipState = { compressed: false };
      // the input's bytes, once a protocol with a binary encoding has looked at their head
      let bytes: AsyncIterable<Uint8Array | string> | undefined;
      const encoding = check.binaryEncoding;
      if (encoding) {
        let head: Awaited<ReturnType<typeof peekHead>>;
        try {
          head = await peekHead(gunzipIfCompressed(input.open(), gz, maxLineBytes), encoding);
        } catch (e) {
          throw new InputError(input.source, e);
        }
        if (head.binary) {
          const n = await feedBinary(check, encoding, input.source, paced(head.rest, ready), maxLineBytes);
          stats.bytes += n.bytes;
          stats.lines += n.messages;
          if (gz.corrupt) sink(gzipCorrupt(input.source, n.messages + 1, gz.corrupt));
          done += n.bytes;
          onBytes?.(done);
          continue;
        }
        bytes = head.rest;
      }
      const open = () => bytes ?? gunzipIfCompressed(input.open(), gz, maxLineBytes);
      if (input.framing === 'document') {
        let doc: Awaited<ReturnType<typeof readAll>>;
        try {
          doc = await readAll(open(), maxLineBytes);
        } catch (e) {
          throw new InputError(input.source, e);
        }
        stats.bytes += doc.length;
        // a document is one framing unit: the line cap applies to it whole (never a silent pass)
        // a document whose member was whole is checked; bytes after it are one finding besides
        if (doc.binary) {
          const at = { source: input.source, line: 1, column: 1, byteOffset: 0 };
          sink(framingFinding('jsonl/binary-input', at, doc.binary.messageId, doc.binary.args));
        } else if (gz.corrupt && !gz.corrupt.trailing) sink(gzipCorrupt(input.source, 1, gz.corrupt));
        else if (doc.buf && check.documentLines && jsonLines(doc.buf)) {
          // not one document but JSON lines (a collector's file exporter writes them to a `.json` file)
          const st = await readJsonl([doc.buf], input.source, (line) => void check.line(line, undefined, sink), sink, {
            maxLineBytes,
            cr: check.def.cr,
          });
          stats.lines += st.lines;
        } else if (doc.buf) await check.document(input.source, doc.buf);
        else
          sink(
            framingFinding(
              'jsonl/line-too-long',
              { source: input.source, line: 1, column: 1, byteOffset: 0 },
              'document',
              { bytes: doc.length, cap: maxLineBytes },
            ),
          );
        if (gz.corrupt?.trailing) sink(gzipCorrupt(input.source, 1, gz.corrupt, true));
        done += doc.length;
        onBytes?.(done);
        continue;
      }
      const path = input.path;
      const fileReread = path === undefined ? undefined : (byteOffset: number) => readBack.line(path, byteOffset);
      // known once the first bytes say whether the input is compressed (gunzipIfCompressed sets gz first)
      let reread: ((byteOffset: number) => string | undefined) | undefined;
      let spool: ReadSpool | undefined;
      let started = false;
      const spooled = async function* (it: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array | string> {
        for await (const piece of it) {
          if (!started) {
            started = true;
            if (fileReread && !gz.compressed) reread = fileReread;
            else {
              spool = ReadSpool.open(maxLineBytes);
              reread = spool?.reread;
            }
          }
          // the reader's own conversion (src/core/jsonl.ts), so spool offsets are its byte offsets
          if (spool && !spool.append(typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece))
            reread = undefined;
          yield piece;
          // this chunk's lines are checked and their output written: read on once the output has room
          const wait = ready?.();
          if (wait) await wait;
        }
      };
      // an input none of whose lines parse may be what another binding reads (src/core/hint-hold.ts)
      const hint = check.hint;
      const hold = hint ? new HintHold(sink, (t) => hint(t, input.source, 'jsonl')) : undefined;
      const release = hold ? () => hold.release() : undefined;
      // an exception while checking is ours, not the input's: never "cannot read"
      let ownError: unknown;
      const onLine = (line: JsonlLine) => {
        try {
          hold?.line(line);
          check.line(line, reread, hold?.sink ?? sink, release);
        } catch (e) {
          ownError = e ?? new Error('a checker threw a nullish value');
          throw ownError;
        }
      };
      const base = done;
      // a cut gzip stream is one finding: not also "empty input" when it broke before any line, nor "no final newline"
      // when it broke inside a line past the cap (that line is passed on as it comes, and reported too long)
      const inputSink: FindingSink = (f) =>
        gz.corrupt &&
        (f.ruleId === 'jsonl/empty-input' || (gz.corrupt.overLong && f.ruleId === 'jsonl/no-final-newline'))
          ? undefined
          : (hold?.sink ?? sink)(f);
      try {
        const st = await readJsonl(spooled(open()), input.source, onLine, inputSink, {
          maxLineBytes,
          cr: check.def.cr,
          onProgress: onBytes ? (b) => onBytes(base + b) : undefined,
        });
        hold?.end();
        stats.bytes += st.bytes;
        stats.lines += st.lines;
        done += st.bytes;
        if (gz.corrupt) sink(gzipCorrupt(input.source, gz.corrupt.overLong ? st.lines : st.lines + 1, gz.corrupt));
      } catch (e) {
        if (e === ownError || e instanceof RuleCrashError || e instanceof RunStopped) throw e;
        throw new InputError(input.source, e);
      } finally {
        spools.push(spool);
      }
    }
  } finally {
    readBack.close();
    for (const s of spools) s?.close();
  }
  return done;
}

/** The first bytes of an input, enough for `encoding` to say whether it is binary, and all its bytes from the start. */
async function peekHead(
  it: AsyncIterable<Uint8Array | string>,
  encoding: BinaryEncoding,
): Promise<{ binary: boolean; rest: AsyncIterable<Uint8Array | string> }> {
  const iter = it[Symbol.asyncIterator]();
  const held: Buffer[] = [];
  let length = 0;
  let ended = false;
  let binary: boolean | undefined;
  while (binary === undefined) {
    const r = await iter.next();
    if (r.done) ended = true;
    else {
      const b = typeof r.value === 'string' ? Buffer.from(r.value, 'utf8') : Buffer.from(r.value);
      held.push(b);
      length += b.length;
    }
    const head = Buffer.concat(held).subarray(0, SNIFF_BYTES);
    // undecided after SNIFF_BYTES, or at the end: text, as it was before the encoding was looked for
    binary = encoding.detect(head, ended) ?? (ended || length >= SNIFF_BYTES ? false : undefined);
  }
  async function* rest(): AsyncGenerator<Uint8Array | string> {
    yield* held;
    if (ended) return;
    for (let r = await iter.next(); !r.done; r = await iter.next()) yield r.value;
  }
  return { binary, rest: rest() };
}

/** `it`, read on only once the output has room (`ready`). */
async function* paced(
  it: AsyncIterable<Uint8Array | string>,
  ready: RunHooks['ready'],
): AsyncGenerator<Uint8Array | string> {
  for await (const piece of it) {
    yield piece;
    const wait = ready?.();
    if (wait) await wait;
  }
}

/** Read one binary input into `check`: each message a line record. @throws InputError; what the check throws. */
async function feedBinary(
  check: StreamCheck,
  encoding: BinaryEncoding,
  source: string,
  it: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): Promise<{ bytes: number; messages: number }> {
  // an exception while checking is ours, not the input's: never "cannot read"
  let ownError: unknown;
  const onLine = (line: JsonlLine) => {
    try {
      check.line(line, undefined, check.findingSink);
    } catch (e) {
      ownError = e ?? new Error('a checker threw a nullish value');
      throw ownError;
    }
  };
  try {
    return await encoding.read(it, source, onLine, check.findingSink, maxBytes);
  } catch (e) {
    if (e === ownError || e instanceof RuleCrashError || e instanceof RunStopped) throw e;
    throw new InputError(source, e);
  }
}

/** The StreamCheck event hook of `hooks`: `event`, and `facts` where the protocol gives them. */
function eventHook(def: ProtocolDefinition, hooks: RunHooks): RunHooks['event'] {
  const facts = hooks.facts && def.eventFacts ? { to: hooks.facts, of: def.eventFacts } : undefined;
  if (!facts) return hooks.event;
  const event = hooks.event;
  return (ev, rejected) => {
    event?.(ev, rejected);
    facts.to(facts.of(ev));
  };
}

/** Run `inputs` through `def`, a fresh StreamCheck per stream group. @throws InputError; TypeError; RuleCrashError. */
export async function runInputs(
  def: ProtocolDefinition,
  inputs: readonly InputSpec[],
  options: ProtocolOptions & RunOptions,
  hooks: RunHooks = {},
): Promise<RunResult> {
  const total = counterOf((f) => hooks.finding?.(f), { maxFindings: options.maxFindings });
  const stats = newStats();
  const groups = streamGroups(inputs, options.each);
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let incomplete = false;
  let done = 0;
  for (const group of groups) {
    const own = counterOf(total.sink, { strict: options.strict });
    const check = new StreamCheck(def, options, own.sink, hooks.crash, eventHook(def, hooks));
    const base = done;
    const progress = hooks.progress;
    try {
      done += await feed(
        check,
        group,
        maxLineBytes,
        progress ? (b) => progress(base + b, stats.events + check.stats.events) : undefined,
        hooks.ready,
      );
    } catch (e) {
      if (!(e instanceof RunStopped)) throw e;
      addStats(stats, check.stats);
      return {
        summary: total.summary(stats, def.knownTypes(options)),
        incomplete: incomplete || check.incomplete,
        worst: total.worst,
        stopped: true,
      };
    }
    check.end();
    incomplete ||= check.incomplete;
    addStats(stats, check.stats);
    if (groups.length > 1)
      hooks.streamEnd?.(
        group.map((i) => i.source),
        own.summary(check.stats, def.knownTypes(options)),
      );
  }
  return { summary: total.summary(stats, def.knownTypes(options)), incomplete, worst: total.worst };
}
