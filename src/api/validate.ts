/** Streaming validation for the library: the run of `validate`, findings in an async iterable. */
import type { Finding } from '../core/finding.ts';
import { abortReason, onAbort } from '../core/abort.ts';
import { checkOptions, VALIDATE_OPTIONS } from './check-options.ts';
import { InputError, type InputSpec } from '../core/pipeline.ts';
import type { Summary } from '../core/summary.ts';
import { ruleSelection } from '../core/protocol.ts';
import { protocolDefinition } from '../run/protocols.ts';
import { runInputs } from '../run/run.ts';
import { checkInputs, toInputSpecs, type Inputs } from './inputs.ts';
import type { OptionsFor, Protocol } from './protocols.ts';

/** Options of {@link validateStream} and {@link validate}. */
export type ValidateOptions<P extends Protocol = Protocol> = OptionsFor<P> & {
  /** Hand at most this many findings to the caller; the rest are only counted (`summary.omitted`). */
  maxFindings?: number;
  /** `true`: each input its own stream (`--each`); `false`: one stream (`--no-each`); default as the CLI. */
  each?: boolean;
  /**
   * `true` rejects the run with the RuleCrashError of a rule that throws, instead of an `internal/rule-error` finding.
   */
  failFast?: boolean;
  /**
   * Stop the run when it aborts: the iteration and `summary()` reject with the signal's reason (an `AbortError`
   * DOMException unless one was given), the files it opened are closed and a Node stream input is destroyed, a web one
   * cancelled. Already aborted: nothing is opened. Abort after the inputs were read changes nothing.
   */
  signal?: AbortSignal;
};

/**
 * One run: iterate it once for the findings in the order found (a stream verdict at the line that settles it, the
 * end-of-input ones last; `--format json` sorts by location), then await `summary()`; it starts on either.
 */
export interface ValidationRun extends AsyncIterable<Finding> {
  /** The summary at the end (alone, it runs the check). @throws InputError; RuleCrashError with `failFast`. */
  summary(): Promise<Summary>;
}

/** Findings queued before reading of the input pauses until the caller takes some. */
const HIGH_WATER = 4096;
const CANCELLED = Symbol('cancelled');

class Run implements ValidationRun {
  private readonly queue: Finding[] = [];
  private head = 0;
  private started = false;
  private iterated = false;
  private discard = false;
  private cancelled = false;
  private outcome: { summary: Summary } | { error: unknown } | undefined;
  /** Set when the signal aborted while reading: the iteration throws it once the reading has stopped. */
  private aborted: { reason: unknown } | undefined;
  private stopListening: () => void = () => {};
  private wakeConsumer: (() => void) | undefined;
  private wakeReader: (() => void) | undefined;
  private readonly ended: Promise<void>;
  private resolveEnded!: () => void;

  constructor(
    private readonly protocol: Protocol,
    private readonly inputs: Inputs,
    private readonly options: ValidateOptions,
  ) {
    this.ended = new Promise((r) => (this.resolveEnded = r));
    const signal = options.signal;
    if (signal?.aborted) {
      // nothing is opened: the first `next()` and `summary()` reject with the reason
      this.aborted = { reason: abortReason(signal) };
      this.outcome = { error: this.aborted.reason };
      this.resolveEnded();
    }
  }

  /** The signal aborted: stop reading (a paused reader wakes, a pending read is interrupted in inputs.ts). */
  private abort(reason: unknown): void {
    if (this.outcome || this.aborted) return;
    this.aborted = { reason };
    this.cancelled = true;
    this.wakeReader?.();
    this.wakeConsumer?.();
  }

  private push(f: Finding): void {
    if (this.discard) return;
    this.queue.push(f);
    this.wakeConsumer?.();
  }

  /** Before each chunk is read: wait while the caller lags behind by {@link HIGH_WATER} findings. */
  private async pace(): Promise<void> {
    while (!this.cancelled && !this.discard && this.queue.length - this.head >= HIGH_WATER)
      await new Promise<void>((r) => (this.wakeReader = r));
    if (this.aborted) throw this.aborted.reason;
    if (this.cancelled) throw CANCELLED;
  }

  private paced(spec: InputSpec): InputSpec {
    const open = spec.open;
    const run = this;
    return {
      ...spec,
      open: async function* () {
        for await (const chunk of open()) {
          await run.pace();
          yield chunk;
        }
      },
    };
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    if (!this.outcome) void this.execute();
  }

  private async execute(): Promise<void> {
    const signal = this.options.signal;
    if (signal) {
      const stop = onAbort(signal, () => this.abort(abortReason(signal)));
      this.stopListening = stop;
    }
    try {
      const def = protocolDefinition(this.protocol);
      const { signal: _, ...o } = this.options;
      const inputs = toInputSpecs(this.inputs, (s) => def.framing(s, o), signal).map((s) => this.paced(s));
      const result = await runInputs(def, inputs, o, { finding: (f) => this.push(f) });
      this.outcome = this.aborted ? { error: this.aborted.reason } : { summary: result.summary };
    } catch (e) {
      this.outcome = this.aborted
        ? { error: this.aborted.reason }
        : e instanceof InputError && e.cause === CANCELLED
          ? { error: new Error('the run was stopped before its end') }
          : { error: e };
    }
    this.stopListening();
    this.resolveEnded();
    this.wakeConsumer?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Finding> {
    if (this.iterated || this.started)
      throw new Error('a validation run can be iterated once, before summary() is called');
    this.iterated = true;
    this.start();
    try {
      for (;;) {
        // an abort wins over queued findings, as over a stream's buffered chunks; the reading has stopped first
        if (this.aborted) {
          await this.ended;
          throw this.aborted.reason;
        }
        if (this.head < this.queue.length) {
          const f = this.queue[this.head++]!;
          if (this.head > 1024 && this.head * 2 > this.queue.length) {
            this.queue.splice(0, this.head);
            this.head = 0;
          }
          this.wakeReader?.();
          yield f;
          continue;
        }
        if (this.outcome) {
          if ('error' in this.outcome) throw this.outcome.error;
          return;
        }
        await new Promise<void>((r) => (this.wakeConsumer = r));
        this.wakeConsumer = undefined;
      }
    } finally {
      // the caller stopped early (break, return, throw): stop reading the inputs
      if (!this.outcome) {
        this.cancelled = true;
        this.wakeReader?.();
      }
    }
  }

  async summary(): Promise<Summary> {
    if (!this.started) {
      this.discard = true;
      this.start();
    }
    await this.ended;
    const o = this.outcome!;
    if ('error' in o) throw o.error;
    return o.summary;
  }
}

/**
 * Validate `inputs` as one stream, streaming. @throws TypeError at once for an unknown protocol, option or rule id, or
 * an input of no known shape; a file or stream that cannot be read rejects the iteration and `summary()` (InputError).
 */
export function validateStream<P extends Protocol>(
  protocol: P,
  inputs: Inputs,
  options: ValidateOptions<P> = {} as ValidateOptions<P>,
): ValidationRun {
  // reject unknown options and rule ids now, not on iteration
  const def = protocolDefinition(protocol);
  checkOptions(protocol, options, VALIDATE_OPTIONS);
  ruleSelection(def, options.rules);
  checkInputs(inputs);
  return new Run(protocol, inputs, options as ValidateOptions);
}

/** What {@link validate} returns. */
export interface ValidationResult {
  /** Every finding in the order found, as {@link ValidationRun} yields them (at most `maxFindings`). */
  findings: Finding[];
  /** The run's counts: by severity and rule (omitted ones too), inputs, lines, events. */
  summary: Summary;
}

/** Validate and collect every finding. @throws InputError; RuleCrashError (`failFast`); TypeError (unknown ids). */
export async function validate<P extends Protocol>(
  protocol: P,
  inputs: Inputs,
  options: ValidateOptions<P> = {} as ValidateOptions<P>,
): Promise<ValidationResult> {
  const run = validateStream(protocol, inputs, options);
  const findings: Finding[] = [];
  for await (const f of run) findings.push(f);
  return { findings, summary: await run.summary() };
}
