/** Sessions and single values: a stream checked one in-memory event at a time (src/api/session.ts). */
import type { Finding } from '../core/finding.ts';
import type { JsonlLine } from '../core/jsonl.ts';
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

  /** @throws TypeError for an unknown rule id */
  constructor(
    def: ProtocolDefinition,
    options: ProtocolOptions & RunOptions,
    private readonly source: string,
  ) {
    this.counter = counterOf((f) => void this.pending.push(f), { strict: options.strict });
    this.known = def.knownTypes(options);
    this.check = new StreamCheck(def, options, this.counter.sink);
    this.check.stats.inputs = 1;
  }

  private take(): Finding[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  /** Check the next line of text (one JSON value), as the next line of one input. */
  text(text: string): Finding[] {
    if (this.spool === null) {
      // no cap on reading back: a session checks lines of any length
      this.spool = ReadSpool.open(Number.MAX_SAFE_INTEGER);
      this.reread = this.spool?.reread;
      if (this.spool) sessionSpools.register(this, this.spool, this);
    }
    let byteLength: number;
    const spooled = this.spool ? this.spool.appendLine(text) : -1;
    if (spooled >= 0) byteLength = spooled - 1;
    else {
      if (this.spool) this.reread = undefined;
      byteLength = Buffer.byteLength(text, 'utf8');
    }
    const line: JsonlLine = {
      source: this.source,
      line: ++this.line,
      byteOffset: this.offset,
      text,
      byteLength,
      unterminated: false,
    };
    this.offset += byteLength + 1;
    this.check.stats.lines++;
    this.check.stats.bytes += byteLength + 1;
    this.check.line(line, this.reread);
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
