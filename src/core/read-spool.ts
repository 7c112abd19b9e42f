/**
 * A read-back spool: an input that cannot be read again (stdin, a pipe, a gzip input's text, a library stream, a
 * session's lines) written as read to an unlinked temporary file, so analyzers read an earlier line back by byte offset
 * as from a regular file, instead of keeping a digest of every event.
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

/** Bytes gathered before one write: a session appends a line at a time, and a write per line cost a system call each. */
const PENDING_BYTES = 1 << 16;

/**
 * One input's spool; {@link ReadSpool.open} gives none where no temporary file can be made (analyzers keep digests).
 * Appends are gathered in memory and written in blocks; a read-back first writes what is gathered.
 */
export class ReadSpool {
  /** Bytes appended, written or gathered. */
  private size = 0;
  /** Bytes written to the file: the gathered bytes follow them. */
  private written = 0;
  private readonly pending = Buffer.allocUnsafe(PENDING_BYTES);
  private pendingLength = 0;
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

  /** Write `bytes` at the end of the file; false (and no later write) once a write failed, a full disk. */
  private write(bytes: Uint8Array, length: number): boolean {
    if (this.failed) return false;
    try {
      let done = 0;
      while (done < length) done += writeSync(this.fd, bytes, done, length - done, this.written + done);
      this.written += length;
      return true;
    } catch {
      this.failed = true;
      return false;
    }
  }

  /** Write the gathered bytes. */
  private flush(): boolean {
    const n = this.pendingLength;
    this.pendingLength = 0;
    return n === 0 || this.write(this.pending, n);
  }

  /** Append the next bytes; false once a write failed (later lines then read back as undefined). */
  append(bytes: Uint8Array): boolean {
    if (this.failed || this.closed) return false;
    const n = bytes.length;
    if (n > PENDING_BYTES - this.pendingLength) {
      if (!this.flush()) return false;
      if (n > PENDING_BYTES >> 1) {
        if (!this.write(bytes, n)) return false;
        this.size += n;
        return true;
      }
    }
    this.pending.set(bytes, this.pendingLength);
    this.pendingLength += n;
    this.size += n;
    return true;
  }

  /** Append `text` and a LF, UTF-8 encoded as `Buffer.from` encodes it: their bytes, or -1 once a write failed. */
  appendLine(text: string): number {
    if (this.failed || this.closed) return -1;
    // at most 3 bytes a UTF-16 unit (a surrogate pair is 4 bytes for 2), and the LF
    const most = text.length * 3 + 1;
    if (most > PENDING_BYTES - this.pendingLength) {
      if (!this.flush()) return -1;
      if (most > PENDING_BYTES) {
        const bytes = Buffer.from(`${text}\n`, 'utf8');
        return this.append(bytes) ? bytes.length : -1;
      }
    }
    const at = this.pendingLength;
    const n = this.pending.write(text, at, 'utf8');
    this.pending[at + n] = 0x0a;
    this.pendingLength = at + n + 1;
    this.size += n + 1;
    return n + 1;
  }

  /** The line that starts at `offset` (without its line end), or undefined where it is not (wholly) spooled. */
  readonly reread = (offset: number): string | undefined => {
    if (this.closed || offset >= this.size) return undefined;
    if (this.pendingLength > 0) this.flush();
    return offset >= this.written ? undefined : readLineAt(this.fd, offset, this.maxLineBytes);
  };

  /** Release the file (its bytes are gone; {@link reread} gives undefined after). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pendingLength = 0;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}
