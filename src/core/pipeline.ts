/**
 * The run's pieces below the orchestration (src/run/run.ts): inputs, line parse, reading a line back, stream groups.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { ConformanceError, ioReason } from './errors.ts';
import type { FindingSink } from './finding.ts';
import { DEFAULT_MAX_DEPTH, parseJsonText } from './json.ts';
import { framingFinding } from './framing.ts';
import type { JsonlLine } from './jsonl.ts';
import type { Mark } from './mark.ts';
import type { ParsedEvent } from './rule.ts';

/** One input to check. */
export interface InputSpec {
  source: string;
  /** Opens the byte stream (called once). May throw/reject on I/O errors. */
  open(): AsyncIterable<Uint8Array | string>;
  size?: number;
  /**
   * A regular file's path, so stream rules can read a line back by offset instead of keeping a digest of every line.
   */
  path?: string;
  /** `jsonl` (default): one message per line; `document`: the whole input is one JSON text (AHP HTTP, registration). */
  framing?: 'jsonl' | 'document';
}

/** Counters collected during a run (summary statistics). */
export interface RunStats {
  inputs: number;
  bytes: number;
  lines: number;
  /** Lines (or documents) that parsed to a JSON object and reached the protocol checker. */
  events: number;
  /** Lines that parsed but the checker set aside, another format than it reads (e.g. bridge output): not in `events`. */
  unchecked?: number;
  /** AHP registration documents checked (`--binding registration`): documents, not events, so not in `events`. */
  documents?: number;
  /** Event types seen (protocol-defined: AEP `type`, AHP event `type` or method), with counts. */
  types: Map<string, number>;
  /** Brings `types` up to date, for a checker that keeps its counts elsewhere while it runs (readers call it first). */
  sync?: () => void;
}

/** Checks parsed events for one protocol; created once per run. */
export interface ProtocolChecker {
  onEvent(event: ParsedEvent): void;
  /** A line of the stream at `at` gave no event (framing: `UNREADABLE_LINE_RULES`); verdicts of absence after it are unsure. */
  onUnreadable?(at: Mark): void;
  /**
   * A whole-document input of `source` is zero bytes (after a BOM): true when the checker gave its own verdict, which
   * replaces `jsonl/empty-input` (an AHP HTTP body, whose emptiness may be the binding's required form).
   */
  emptyDocument?(source: string): boolean;
  end(): void;
}

/**
 * Parse one line into a ParsedEvent, reporting `jsonl/invalid-json`, `jsonl/max-depth`, `jsonl/not-object`; duplicates
 * go on the event. `undefined` when nothing is left to check; arrays pass with `acceptArrays` (bridge decoders).
 */
export function parseLine(
  line: JsonlLine,
  sink: FindingSink,
  maxDepth: number = DEFAULT_MAX_DEPTH,
  acceptArrays = false,
): ParsedEvent | undefined {
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
            ? 'truncated'
            : /^\s*[[{]\s*$/.test(line.text) || (out.index >= line.text.length && /^\s*[[{]/.test(line.text))
              ? 'unclosed'
              : // a value ended, a CR, and another value: two lines joined by a lone CR (classic Mac line ends)
                /\r[ \t\r]*$/.test(line.text.slice(0, out.index))
                ? 'loneCr'
                : 'invalid',
          { reason: out.message },
        ),
      );
    } else {
      sink(
        framingFinding(
          'jsonl/max-depth',
          { source: line.source, line: line.line, column, byteOffset, pointer: out.pointer },
          'tooDeep',
          { depth: out.depth, limit: maxDepth },
        ),
      );
    }
    return undefined;
  }
  const v = out.value;
  if (v === null || typeof v !== 'object' || (Array.isArray(v) && !acceptArrays)) {
    const kind = v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;
    sink(
      framingFinding(
        'jsonl/not-object',
        { source: line.source, line: line.line, column: 1, byteOffset: line.byteOffset, pointer: '' },
        'notObject',
        { kind },
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
        {
          source: line.source,
          line: line.line,
          column: d.index + 1,
          byteOffset: line.byteOffset + Buffer.byteLength(line.text.slice(0, d.index), 'utf8'),
          pointer: d.pointer,
        },
        'omitted',
        { total: out.duplicates.length + out.duplicatesOmitted, omitted: out.duplicatesOmitted },
      ),
    );
  }
  return new ParsedLine(line, v as Record<string, unknown>, out.duplicates, out.bigIntegers);
}

/** A parsed line: a class, so V8 keeps the members a protocol adds in the object (docs/benchmarks.md). */
class ParsedLine implements ParsedEvent {
  readonly source: string;
  readonly line: number;
  readonly byteOffset: number;
  readonly text: string;
  declare binary?: boolean;
  declare reread?: ParsedEvent['reread'];

  constructor(
    l: JsonlLine,
    readonly value: Record<string, unknown>,
    readonly duplicates: ParsedEvent['duplicates'],
    readonly bigIntegers: ParsedEvent['bigIntegers'],
  ) {
    this.source = l.source;
    this.line = l.line;
    this.byteOffset = l.byteOffset;
    this.text = l.text;
    if (l.binary) this.binary = true;
  }
}

/**
 * The line at byte `offset` of `file` (path or open fd) without its terminator, or `undefined` when it cannot be read
 * there any more (gone, shorter, not UTF-8, no line end within `maxBytes` + 2).
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

/**
 * The streams of a run: `each` true, every input alone; false, one stream; absent, each document input alone (a
 * complete exchange) and the JSONL inputs together at the first's place (rotated logs are one log).
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
  b.sync?.();
  a.inputs += b.inputs;
  a.bytes += b.bytes;
  a.lines += b.lines;
  a.events += b.events;
  if (b.unchecked) a.unchecked = (a.unchecked ?? 0) + b.unchecked;
  if (b.documents) a.documents = (a.documents ?? 0) + b.documents;
  for (const [t, n] of b.types) a.types.set(t, (a.types.get(t) ?? 0) + n);
}

/**
 * Count a line that parsed as set aside unchecked, another format than the checker reads (bridge output or the other
 * protocol's messages), not as an event: the run counted it as one before the checker saw it.
 */
export function setAside(stats: RunStats | undefined): void {
  if (!stats) return;
  stats.events--;
  stats.unchecked = (stats.unchecked ?? 0) + 1;
}

/** Count a parsed value the checker checked as a registration document, not as an event (the run counted it as one). */
export function countDocument(stats: RunStats | undefined): void {
  if (!stats) return;
  stats.events--;
  stats.documents = (stats.documents ?? 0) + 1;
}

/** Create empty run statistics. */
export function newStats(): RunStats {
  return { inputs: 0, bytes: 0, lines: 0, events: 0, types: new Map() };
}

/** Thrown when an input cannot be opened or read (exit 2 at the CLI). */
export class InputError extends ConformanceError {
  constructor(
    readonly source: string,
    override readonly cause: unknown,
  ) {
    super('io', `cannot read ${source}: ${ioReason(cause, source)}`);
  }
}
