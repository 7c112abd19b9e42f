/**
 * The JSONL output of the verbs that write a stream (`redact`, `downlevel`, `filter`, `convert`): stdout or `-o FILE`
 * (src/cli/output.ts: a file replaced at the end, a device or FIFO written through), with backpressure
 * ({@link StreamOutput.ready}); a reader that goes away (`| head`) stops the run quietly.
 */
import { RunStopped } from '../run/run.ts';
import type { Output } from '../report/types.ts';
import type { CliIO } from './common.ts';
import { outputIsInput, outputIsReadMessage, type ReportFile, reportFileFor } from './output.ts';

/** Bytes gathered before one write. */
const FLUSH_CHARS = 1 << 16;

/** One stream verb's output. */
export class StreamOutput {
  private buf = '';

  private constructor(
    private readonly out: Output,
    private readonly file: ReportFile | undefined,
  ) {}

  /** Standard output, or `-o FILE` (never one of `inputs`); `undefined` after saying on stderr why (exit 2). */
  static open(io: CliIO, output: string | undefined, inputs: readonly string[]): StreamOutput | undefined {
    if (output !== undefined) {
      const same = outputIsInput(output, inputs);
      if (same !== undefined) {
        io.stderr.write(outputIsReadMessage('aep', output, `the input ${same}`));
        return undefined;
      }
    }
    const file = reportFileFor('aep', output, io.stderr);
    if (file === null) return undefined;
    return new StreamOutput(file ?? io.stdout, file);
  }

  /** Append one line (with its newline). */
  line(text: string): void {
    this.buf += text;
    if (this.buf.length >= FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    if (this.buf) this.out.write(this.buf);
    this.buf = '';
  }

  /** The run's {@link RunHooks.ready}: write what is gathered, then wait for room. @throws RunStopped when the reader is gone. */
  readonly ready = (): Promise<void> | undefined => {
    if (this.out.closed?.()) throw new RunStopped();
    this.flush();
    return this.out.ready?.();
  };

  /** Write the rest; with `-o`, rename the file into place (`ok`) or remove it. Returns an error message, if any. */
  finish(ok: boolean): string | undefined {
    this.flush();
    if (!this.file) return undefined;
    if (ok) return this.file.commit();
    this.file.abort();
    return undefined;
  }
}
