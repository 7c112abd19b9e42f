/**
 * `-o FILE`: written to a temporary beside FILE and renamed only when the run completed, so a failed run leaves the
 * previous report; FILE may not be an input (same device and inode), or the log would be replaced by its report.
 */
import { closeSync, openSync, renameSync, type Stats, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Output } from '../report/types.ts';

/** A report file being written: {@link Output} plus the end of the run. */
export interface ReportFile extends Output {
  /** Rename the finished report into place. Returns an error message, or `undefined` on success. */
  commit(): string | undefined;
  /** Remove the temporary file (the run failed); the previous FILE stays as it was. */
  abort(): void;
}

/** The input among `inputs` that is the same file as `output`, or `undefined`. */
export function outputIsInput(output: string, inputs: readonly string[]): string | undefined {
  let out: Stats;
  try {
    out = statSync(output);
  } catch {
    return undefined;
  }
  for (const input of inputs) {
    if (input === '-') continue;
    try {
      const st = statSync(input);
      if (st.dev === out.dev && st.ino === out.ino) return input;
    } catch {
      // an unreadable input is reported when it is opened
    }
  }
  return undefined;
}

/** openReportFile for `-o`: `undefined` without one, `null` when it cannot be created (said on stderr; exit 2). */
export function reportFileFor(name: string, output: string | undefined, stderr: Output): ReportFile | undefined | null {
  if (output === undefined) return undefined;
  // a folder: said before anything is written (the temporary file would go beside it)
  let isDir = false;
  try {
    isDir = statSync(output).isDirectory();
  } catch {
    // absent (the usual case) or unreadable: opening says what is wrong
  }
  if (isDir) {
    stderr.write(`${name}: cannot write ${output}: it is a folder (give -o a file name)\n`);
    return null;
  }
  try {
    return openReportFile(output);
  } catch (e) {
    // the message names the file asked for, not the temporary file beside it
    const err = e as NodeJS.ErrnoException;
    stderr.write(
      `${name}: cannot write ${output}: ${err.code ?? err.message}${err.code === 'ENOENT' ? ' (its folder does not exist)' : ''}\n`,
    );
    return null;
  }
}

/**
 * Start a report to `path` via a temporary in the same folder (atomic rename). @throws Error when it cannot be created.
 */
export function openReportFile(path: string): ReportFile {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  const fd = openSync(tmp, 'wx', 0o644);
  let failed: Error | undefined;
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    write(chunk: string) {
      if (failed) return;
      try {
        writeSync(fd, chunk);
      } catch (e) {
        failed = e as Error;
      }
    },
    commit() {
      try {
        close();
        if (failed) throw failed;
        renameSync(tmp, path);
        return undefined;
      } catch (e) {
        this.abort();
        return (e as Error).message;
      }
    },
    abort() {
      try {
        close();
      } catch {
        // closing a descriptor that failed to write: the file is removed next
      }
      try {
        unlinkSync(tmp);
      } catch {
        // already gone
      }
    },
  };
}
