/** Sessions and single values: a stream checked one in-memory event at a time (src/api/session.ts). */
import type { Finding } from '../core/finding.ts';
import { framingFinding, frameLineText } from '../core/jsonl.ts';
import type { FindingCounter, Summary } from '../core/summary.ts';
import { ReadSpool } from '../core/read-spool.ts';
import type { ProtocolDefinition, ProtocolOptions } from '../core/protocol.ts';
import { StreamCheck } from './stream-check.ts';
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
  /** Lines that were not blank: a session of blank lines only is an empty input, as a file of them is. */
  private candidates = 0;

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
    this.check.stats.inputs = 1;
  }

  private take(): Finding[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  /** Check the next line of text (one JSON value), as the next line of one input. */
  text(given: string): Finding[] {
    if (this.spool === null) {
      // no cap on reading back: a session checks lines of any length
      this.spool = ReadSpool.open(Number.MAX_SAFE_INTEGER);
      this.reread = this.spool?.reread;
      if (this.spool) sessionSpools.register(this, this.spool, this);
    }
    // the spool holds the session's bytes as a file would (a BOM and blank lines too), so offsets read back alike
    const spooled = this.spool ? this.spool.appendLine(given) : -1;
    if (spooled < 0 && this.spool) this.reread = undefined;
    const lineNo = ++this.line;
    const at = this.offset;
    const whole = spooled >= 0 ? spooled - 1 : Buffer.byteLength(given, 'utf8');
    this.offset += whole + 1;
    this.check.stats.lines++;
    this.check.stats.bytes += whole + 1;
    // the framing of a line in a file (a BOM, a CR the binding refuses, a blank line), so every route agrees; where the
    // binding takes a CRLF line end, the reader leaves its CR out of the line, and so does a session
    const crlf = !this.rejectCR && given.endsWith('\r');
    const framed = frameLineText(crlf ? given.slice(0, -1) : given, crlf ? whole - 1 : whole, {
      source: this.source,
      line: lineNo,
      byteOffset: at,
      terminated: true,
      rejectCR: this.rejectCR,
      sink: this.check.findingSink,
    });
    if (framed === undefined) return this.take();
    this.candidates++;
    this.check.line(framed, this.reread);
    return this.take();
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
    if (this.line > 0 && this.candidates === 0)
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
