/**
 * Single in-memory events for emitters' unit tests: a session checks events one at a time, in
 * order, with the stream state of one input; each call returns that event's findings. Each
 * event goes through the pipeline's own parse ({@link parseLine}) and the protocol checker,
 * exactly as a line of `validate`'s input would.
 */
import type { Finding } from '../core/finding.ts';
import { DEFAULT_MAX_DEPTH } from '../core/json.ts';
import type { JsonlLine } from '../core/jsonl.ts';
import { newStats, parseLine, type ProtocolChecker, type RunStats } from '../core/pipeline.ts';
import { FindingCounter, type Summary } from '../core/summary.ts';
import { visibleFinding } from '../core/visible.ts';
import { protocolSpec, type OptionsFor, type Protocol } from './protocols.ts';

/** Options of {@link createSession} and {@link checkEvent}. */
export type SessionOptions<P extends Protocol = Protocol> = OptionsFor<P> & {
  /** The input name findings carry (default `<session>`); for AHP also the binding by name unless `binding` is set. */
  source?: string;
};

/** A stream checked one event at a time. */
export interface CheckSession {
  readonly protocol: Protocol;
  /**
   * Check the next event: an object (serialised with `JSON.stringify`) or the JSON text of one
   * line. Returns the findings it caused, including stream findings about earlier events that
   * this one completes. Its `line` is the event's position in the session (1-based).
   * @throws TypeError when the object cannot be serialised; Error after {@link end}.
   */
  check(event: object | string): Finding[];
  /** End the stream: the end-of-stream findings (open work, unanswered requests). Once. */
  end(): Finding[];
  /** Counts so far (or of the whole session after {@link end}). */
  summary(): Summary;
}

class Session implements CheckSession {
  private readonly stats: RunStats = newStats();
  private readonly counter: FindingCounter;
  private readonly checker: ProtocolChecker;
  private readonly maxDepth: number;
  private readonly source: string;
  private readonly knownTypes: readonly string[];
  private pending: Finding[] = [];
  private line = 0;
  private offset = 0;
  private ended = false;

  constructor(
    readonly protocol: Protocol,
    options: SessionOptions,
  ) {
    const spec = protocolSpec(protocol);
    this.counter = new FindingCounter((f) => void this.pending.push(f), { strict: options.strict });
    // no message leaves with a raw invisible or control character (src/core/visible.ts)
    const sink = this.counter.sink;
    this.checker = spec.driver(options).createChecker((f) => sink(visibleFinding(f)), this.stats);
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.source = options.source ?? '<session>';
    this.knownTypes = spec.knownTypes();
    this.stats.inputs = 1;
  }

  private take(): Finding[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  check(event: object | string): Finding[] {
    if (this.ended) throw new Error('this session has ended: create a new one');
    let text: string;
    try {
      text = typeof event === 'string' ? event : JSON.stringify(event);
    } catch (e) {
      throw new TypeError(`the event cannot be serialised as JSON: ${(e as Error).message}`);
    }
    if (typeof text !== 'string') throw new TypeError('the event cannot be serialised as JSON');
    const byteLength = Buffer.byteLength(text, 'utf8');
    const line: JsonlLine = { source: this.source, line: ++this.line, byteOffset: this.offset, text, byteLength, unterminated: false };
    this.offset += byteLength + 1;
    this.stats.lines++;
    this.stats.bytes += byteLength + 1;
    const ev = parseLine(line, (f) => this.counter.sink(visibleFinding(f)), this.maxDepth);
    if (ev) {
      this.stats.events++;
      this.checker.onEvent(ev);
    }
    return this.take();
  }

  end(): Finding[] {
    if (this.ended) throw new Error('this session has already ended');
    this.ended = true;
    this.checker.end();
    return this.take();
  }

  summary(): Summary {
    return this.counter.summary(this.stats, this.knownTypes);
  }
}

/**
 * A session of `protocol`: check events in order with stream state (sequence numbers,
 * identity, request/answer pairing), as lines of one input.
 * @throws TypeError for an unknown protocol or rule id.
 */
export function createSession<P extends Protocol>(protocol: P, options: SessionOptions<P> = {} as SessionOptions<P>): CheckSession {
  return new Session(protocol, options as SessionOptions);
}

/**
 * Check one in-memory event on its own (the first event of a fresh stream; the stream is not
 * ended, so there are no end-of-stream findings). For several related events, use
 * {@link createSession}.
 * @throws TypeError for an unknown protocol or rule id, or an event that cannot be serialised.
 */
export function checkEvent<P extends Protocol>(protocol: P, event: object | string, options: SessionOptions<P> = {} as SessionOptions<P>): Finding[] {
  return new Session(protocol, options as SessionOptions).check(event);
}
