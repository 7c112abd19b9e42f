/**
 * `-o, --output FILE` for `validate` and `fixtures`: the report is written to a temporary file
 * beside FILE and renamed over it only when the run completed, so a failed or interrupted run
 * never leaves half a report and never destroys the previous one; and FILE may not be one of
 * the run's inputs (the same file by device and inode, so also through a symbolic or hard link):
 * the log would be replaced by its own report.
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

/**
 * The input among `inputs` (paths as given; `-` is standard input) that is the same file as
 * `output`, or `undefined`. A missing output file is no input.
 */
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

/**
 * {@link openReportFile} for a verb's `-o`: `undefined` without one, `null` when the file cannot
 * be created (said in one line on `stderr`, prefixed with the command's `name`; the verb exits 2).
 */
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
 * Start writing a report to `path` through a temporary file in the same folder (the rename is
 * then atomic: same file system). @throws Error when the temporary file cannot be created.
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
