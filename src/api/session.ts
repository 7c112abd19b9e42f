/** Sessions for emitters' unit tests: events checked one at a time, as lines of one input. */
import type { Finding } from '../core/finding.ts';
import { checkOptions, described, SESSION_OPTIONS } from './check-options.ts';
import type { Summary } from '../core/summary.ts';
import { protocolDefinition } from '../run/protocols.ts';
import { EventStream } from '../run/run.ts';
import type { OptionsFor, Protocol } from './protocols.ts';

/** Options of {@link createSession} and {@link checkEvent}. */
export type SessionOptions<P extends Protocol = Protocol> = OptionsFor<P> & {
  /** Throw a rule's {@link RuleCrashError} instead of reporting it as `internal/rule-error`. */
  failFast?: boolean;
  /** The input name findings carry (default `<session>`); for AHP also the binding by name unless `binding` is set. */
  source?: string;
};

/** A stream checked one event at a time. */
export interface CheckSession {
  readonly protocol: Protocol;
  /** Check the next event (an object or JSON text). @throws TypeError (bytes, unserialisable); Error after `end`. */
  check(event: object | string): Finding[];
  /** End the stream: the end-of-stream findings (open work, unanswered requests). Once. */
  end(): Finding[];
  /** Counts so far (or of the whole session after {@link end}). */
  summary(): Summary;
}

class Session implements CheckSession {
  private readonly stream: EventStream;
  private ended = false;

  constructor(
    readonly protocol: Protocol,
    options: SessionOptions,
  ) {
    const def = protocolDefinition(protocol);
    checkOptions(protocol, options, SESSION_OPTIONS);
    this.stream = new EventStream(def, options, options.source ?? '<session>');
  }

  check(event: object | string): Finding[] {
    if (this.ended) throw new Error('this session has ended: create a new one');
    // bytes are an input, which `validate()` reads with its framing checks (UTF-8, BOM); an event is a value or text
    if (ArrayBuffer.isView(event) || event instanceof ArrayBuffer)
      throw new TypeError(
        `the event is bytes (${event.constructor.name}): pass one event as an object or its JSON text (decode the bytes first, e.g. buf.toString('utf8')), or give the bytes to validate(), which reads them as a JSONL input`,
      );
    let text: string;
    try {
      text = typeof event === 'string' ? event : JSON.stringify(event);
    } catch (e) {
      throw new TypeError(`the event cannot be serialised as JSON: ${(e as Error).message}`);
    }
    if (typeof text !== 'string')
      throw new TypeError(`the event is ${described(event)}, which has no JSON text: pass an object or its JSON text`);
    return this.stream.text(text);
  }

  end(): Finding[] {
    if (this.ended) throw new Error('this session has already ended');
    this.ended = true;
    return this.stream.end();
  }

  summary(): Summary {
    return this.stream.summary();
  }
}

/** A session of `protocol`, events checked in order. @throws TypeError for an unknown protocol or rule id. */
export function createSession<P extends Protocol>(
  protocol: P,
  options: SessionOptions<P> = {} as SessionOptions<P>,
): CheckSession {
  return new Session(protocol, options as SessionOptions);
}

/** One event checked alone (a fresh stream). @throws TypeError for unknown ids, bytes or an unserialisable event. */
export function checkEvent<P extends Protocol>(
  protocol: P,
  event: object | string,
  options: SessionOptions<P> = {} as SessionOptions<P>,
): Finding[] {
  return new Session(protocol, options as SessionOptions).check(event);
}
