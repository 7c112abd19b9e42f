/**
 * A read-back spool: the bytes of an input that cannot be read again (standard input, a pipe or FIFO,
 * a gzip input's decompressed text, a library stream, bytes or text, a session's lines) written as
 * they are read to a temporary file that is unlinked at once, so an analyzer reads an earlier line
 * back by its byte offset exactly as from a regular file. Without it every event of such an input
 * pays a canonical digest (the identity analyzers' redelivery check), which a regular file pays only
 * on a repeat: one reading path, one cost, whatever the byte source.
 */
import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readLineAt } from './pipeline.ts';

let counter = 0;

/** Spool files go to `AGENT_CONFORMANCE_SPOOL_DIR`, else the system's temporary folder; `off` disables spooling. */
function spoolDir(): string | undefined {
  const env = process.env.AGENT_CONFORMANCE_SPOOL_DIR;
  if (env === 'off') return undefined;
  // node:os through require: the CLI bundles load it lazily (tools/build/build.mjs), which a named import defeats
  return env || (createRequire(import.meta.url)('node:os') as typeof import('node:os')).tmpdir();
}

/** One input's spool; {@link ReadSpool.open} gives none where no temporary file can be made (analyzers keep digests). */
export class ReadSpool {
  private size = 0;
  private failed = false;
  private closed = false;

  private constructor(
    private readonly fd: number,
    private readonly maxLineBytes: number,
  ) {}

  /** A new spool, or undefined where the temporary folder is not writable (or spooling is off). */
  static open(maxLineBytes: number): ReadSpool | undefined {
    const dir = spoolDir();
    if (dir === undefined) return undefined;
    const path = join(dir, `agent-conformance-${process.pid}-${Date.now().toString(36)}-${counter++}.spool`);
    let fd: number;
    try {
      fd = openSync(path, 'wx+', 0o600);
    } catch {
      return undefined;
    }
    try {
      // unlinked while open: nothing is left behind whatever ends the process
      unlinkSync(path);
    } catch {
      // a system that cannot unlink an open file: the spool still works; the file is the temporary folder's
    }
    return new ReadSpool(fd, maxLineBytes);
  }

  /** Append the next bytes; false once a write failed (a full disk): later lines are then not rereadable. */
  append(bytes: Uint8Array): boolean {
    if (this.failed || this.closed) return false;
    try {
      let done = 0;
      while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, this.size + done);
      this.size += bytes.length;
      return true;
    } catch {
      this.failed = true;
      return false;
    }
  }

  /** The line that starts at `offset` (without its line end), or undefined where it is not (wholly) spooled. */
  readonly reread = (offset: number): string | undefined =>
    this.closed || offset >= this.size ? undefined : readLineAt(this.fd, offset, this.maxLineBytes);

  /** Release the file (its bytes are gone; {@link reread} gives undefined after). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}
