/** Sessions and single values: a stream checked one in-memory event at a time (src/api/session.ts). */
import type { Finding } from '../core/finding.ts';
import { DEFAULT_MAX_LINE_BYTES, framingFinding, frameLineText } from '../core/jsonl.ts';
import { HintHold } from '../core/hint-hold.ts';
import type { FindingCounter, Summary } from '../core/summary.ts';
import { ReadSpool } from '../core/read-spool.ts';
import type { ProtocolDefinition, ProtocolOptions } from '../core/protocol.ts';
import { jsonLines, StreamCheck } from './stream-check.ts';
import { counterOf, type RunOptions } from './run-api.ts';

/** A session never ended still releases its spool's descriptor once it is collected. */
const sessionSpools = new FinalizationRegistry<ReadSpool>((spool) => spool.close());

/** A stream checked one in-memory event at a time (sessions, single values), `--strict` applied and counted. */
export class EventStream {
  private readonly check: StreamCheck;
  private readonly counter: FindingCounter;
  private pending: Finding[] = [];
  private line = 0;
  private offset = 0;
  /** The session's lines, so a repeat is compared with its first copy read back, as in a file (no digest per event). */
  private spool: ReadSpool | undefined | null = null;
  private reread: ((byteOffset: number) => string | undefined) | undefined;
  private readonly known: readonly string[];
  private readonly rejectCR: boolean;
  /** Lines checked, and blank ones: a session of blank lines only is an empty input, as a file of them is. */
  private candidates = 0;
  private blanks = 0;
  /** A line of the session parsed: no more findings wait for a binding hint. */
  private parsed = false;
  private readonly framing: 'jsonl' | 'document';
  private readonly maxLineBytes: number;

  /** @throws TypeError for an unknown rule id */
  constructor(
    def: ProtocolDefinition,
    options: ProtocolOptions & RunOptions,
    private readonly source: string,
  ) {
    this.counter = counterOf((f) => void this.pending.push(f), { strict: options.strict });
    this.known = def.knownTypes(options);
    this.check = new StreamCheck(def, options, this.counter.sink);
    this.rejectCR = def.cr === 'reject';
    this.framing = def.framing(source, options);
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.check.stats.inputs = 1;
  }

  private take(): Finding[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  /**
   * Check the next text as the next bytes of one input: JSONL framing (one line, or as many as it has LFs; a final LF
   * is its own line end), or under a document framing (AHP HTTP body, registration) one whole document. Every route
   * then agrees on the same bytes: a file of them gives the same findings at the same places.
   */
  text(given: string): Finding[] {
    if (this.spool === null) {
      // no cap on reading back: a session checks lines of any length
      this.spool = ReadSpool.open(Number.MAX_SAFE_INTEGER);
      this.reread = this.spool?.reread;
      if (this.spool) sessionSpools.register(this, this.spool, this);
    }
    // a document is the text's bytes; a line brings its own line end, or the session adds the one a file would have
    const document = this.framing === 'document' && !(this.check.documentLines && jsonLines(given));
    const body = !document && given.endsWith('\n') ? given.slice(0, -1) : given;
    // the spool holds the session's bytes as a file would (a BOM and blank lines too), so offsets read back alike
    const spooled = this.spool ? this.spool.appendLine(body) : -1;
    if (spooled < 0 && this.spool) this.reread = undefined;
    const bytes = spooled >= 0 ? spooled : Buffer.byteLength(body, 'utf8') + 1;
    const at = this.offset;
    this.offset += bytes;
    this.check.stats.bytes += bytes;
    if (document) this.document(body, at, bytes - 1);
    else this.lines(body, at);
    return this.take();
  }

  /** One document as the file route reads it (src/run/run.ts): the line cap on it whole, then the document check. */
  private document(text: string, at: number, byteLength: number): void {
    const line = this.line + 1;
    this.line += text.split('\n').length;
    this.candidates++;
    if (byteLength > this.maxLineBytes) {
      const where = { source: this.source, line, column: 1, byteOffset: at };
      this.check.findingSink(
        framingFinding('jsonl/line-too-long', where, 'document', { bytes: byteLength, cap: this.maxLineBytes }),
      );
      return;
    }
    this.check.documentText(this.source, text, byteLength, { line, byteOffset: at });
  }

  /** The lines of `body` (no final LF), the first at byte `at`, as the JSONL reader frames them (src/core/jsonl.ts). */
  private lines(body: string, at: number): void {
    // while no line of the session has parsed, its findings wait for the binding hint, as a file's do (hint-hold.ts)
    const hint = this.check.hint;
    const source = this.source;
    const hold =
      hint && !this.parsed ? new HintHold(this.check.findingSink, (t) => hint(t, source, 'jsonl')) : undefined;
    const sink = hold?.sink ?? this.check.findingSink;
    const release = () => {
      this.parsed = true;
      hold?.release();
    };
    let offset = at;
    for (const part of body.split('\n')) {
      const lineNo = ++this.line;
      this.check.stats.lines++;
      const whole = Buffer.byteLength(part, 'utf8');
      const here = offset;
      offset += whole + 1;
      // where the binding takes a CRLF line end, the reader leaves its CR out of the line, and so does a session
      const crlf = !this.rejectCR && part.endsWith('\r');
      const length = crlf ? whole - 1 : whole;
      const frame = { source, line: lineNo, byteOffset: here, terminated: true, rejectCR: this.rejectCR, sink };
      if (length > this.maxLineBytes) {
        const where = { source, line: lineNo, column: 1, byteOffset: here };
        sink(framingFinding('jsonl/line-too-long', where, 'line', { bytes: length, cap: this.maxLineBytes }));
        continue;
      }
      const framed = frameLineText(crlf ? part.slice(0, -1) : part, length, frame);
      if (framed === undefined) {
        this.blanks++;
        continue;
      }
      this.candidates++;
      hold?.line(framed);
      this.check.line(framed, this.reread, sink, release);
    }
    hold?.end();
  }

  /** Check a value that has no text (the single-message check of any JSON value). */
  value(value: unknown): Finding[] {
    this.line++;
    this.check.event({
      source: this.source,
      line: this.line,
      byteOffset: 0,
      text: '',
      value: value as Record<string, unknown>,
      duplicates: [],
      bigIntegers: [],
    });
    return this.take();
  }

  end(): Finding[] {
    if (this.line > 0 && this.candidates === 0 && this.blanks === this.line)
      this.check.findingSink(
        framingFinding(
          'jsonl/empty-input',
          { source: this.source, line: this.line, byteOffset: this.offset },
          'noEvent',
        ),
      );
    this.check.end();
    if (this.spool) {
      sessionSpools.unregister(this);
      this.spool.close();
    }
    return this.take();
  }

  get incomplete(): boolean {
    return this.check.incomplete;
  }

  summary(): Summary {
    return this.counter.summary(this.check.stats, this.known);
  }
}
