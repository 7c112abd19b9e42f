/**
 * `-o FILE`: a regular file (or a new one) is written to a temporary beside it and renamed over it only when the run
 * completed, keeping its mode and owner, so a failed or interrupted run leaves the previous report (a file with other
 * hard links gets the temporary's bytes copied in, so that its inode and every name stay); a symbolic link is followed;
 * a device or FIFO is written through. FILE may not be an input (same device and inode) or the log would be replaced.
 */
import {
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fchownSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { Output } from '../report/types.ts';

/** A report file being written: {@link Output} plus the end of the run. */
export interface ReportFile extends Output {
  /** Rename the finished report into place. Returns an error message, or `undefined` on success. */
  commit(): string | undefined;
  /** The run failed: the temporary file is removed and FILE stays as it was (a device or FIFO keeps what it got). */
  abort(): void;
}

/** `output`'s status when it is a regular file the run would replace, else `undefined`. */
function replacedFile(output: string): Stats | undefined {
  try {
    const out = statSync(output);
    // a device or FIFO is written through, not replaced (`validate /dev/stdin -o /dev/stdout` on one terminal)
    return out.isFile() ? out : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The one refusal of every verb whose `-o` names a file it reads (`validate`, the stream verbs, `fixtures`): `what`
 * names that file (`the input x.jsonl`), `rest` may add where to write instead.
 */
export function outputIsReadMessage(bin: string, output: string, what: string, rest = ''): string {
  return `${bin}: --output ${output} is ${what}: writing there would destroy it; name another file${rest}\n`;
}

/** The input among `inputs` that is the same file as `output`, or `undefined`. */
export function outputIsInput(output: string, inputs: readonly string[]): string | undefined {
  const out = replacedFile(output);
  if (out === undefined) return undefined;
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
 * The input `output` is (as {@link outputIsInput}: same device and inode, so through a symbolic or hard link too) among
 * `files` and every file below the folders `trees` (a fixture directory: its cases, manifest and sidecars), or
 * `undefined`. A folder below is walked by its real path once, so a link loop ends.
 */
export function outputInTrees(output: string, trees: readonly string[], files: readonly string[]): string | undefined {
  const direct = outputIsInput(output, files);
  if (direct !== undefined) return direct;
  const out = replacedFile(output);
  if (out === undefined) return undefined;
  const seen = new Set<string>();
  const walk = (dir: string): string | undefined => {
    let real: string;
    let names: string[];
    try {
      real = realpathSync(dir);
      if (seen.has(real)) return undefined;
      seen.add(real);
      names = readdirSync(dir);
    } catch {
      // unreadable: the run says so when it reads there
      return undefined;
    }
    for (const name of names) {
      const p = join(dir, name);
      let st: Stats;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        const hit = walk(p);
        if (hit !== undefined) return hit;
      } else if (st.dev === out.dev && st.ino === out.ino) return p;
    }
    return undefined;
  };
  for (const tree of trees) {
    const hit = walk(tree);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** `p`'s real path, through links: an `p` that does not exist yet is its nearest existing ancestor's real path joined
 * with the rest, so a new file is placed where it would be created. */
function realPathOf(p: string): string | undefined {
  const rest: string[] = [];
  let at = resolve(p);
  for (;;) {
    try {
      return join(realpathSync(at), ...rest);
    } catch {
      const up = dirname(at);
      if (up === at) return undefined;
      rest.unshift(basename(at));
      at = up;
    }
  }
}

/**
 * The folder among `trees` that `output` is (or would be created) below, through symbolic links, or `undefined`: a new
 * report file there would be read by the next run of the tree as one of its files.
 */
export function outputUnderTrees(output: string, trees: readonly string[]): string | undefined {
  const out = realPathOf(output);
  if (out === undefined) return undefined;
  for (const tree of trees) {
    let real: string;
    try {
      real = realpathSync(tree);
    } catch {
      // a missing tree is the run's to report
      continue;
    }
    if (out.startsWith(real.endsWith(sep) ? real : real + sep)) return tree;
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
 * Where `-o PATH` writes, past its symbolic links (a dangling one names the file to create). `replace`: a regular file
 * (`old`, whose mode and owner the new one keeps) or none yet, written beside and renamed over; `direct`: anything else
 * (a device, a FIFO, `/dev/stdout`), opened and written through.
 */
export type OutputTarget = { kind: 'replace'; path: string; old?: Stats } | { kind: 'direct'; path: string };

/** The {@link OutputTarget} of `path`, looked at now. @throws Error when a link cannot be read (ELOOP past 40). */
export function outputTarget(path: string): OutputTarget {
  let at = path;
  for (let links = 0; links <= 40; links++) {
    let st: Stats;
    try {
      st = lstatSync(at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'replace', path: at };
      throw e;
    }
    if (!st.isSymbolicLink())
      return st.isFile() ? { kind: 'replace', path: at, old: st } : { kind: 'direct', path: at };
    const dir = realpathSync(dirname(at));
    // /proc/PID/fd/N names an open descriptor (`pipe:[…]` is no path): only opening the link reaches it
    if (dir.startsWith('/proc/')) return { kind: 'direct', path };
    at = resolve(dir, readlinkSync(at));
  }
  throw Object.assign(new Error(`${path}: too many symbolic links`), { code: 'ELOOP' });
}

/** Start a report to `path` ({@link outputTarget}). @throws Error when it cannot be opened or created. */
export function openReportFile(path: string): ReportFile {
  const target = outputTarget(path);
  return target.kind === 'direct' ? openDirect(target.path) : openReplacing(target.path, target.old);
}

/** Write through: nothing to rename or undo; a reader that goes away ends the writing quietly, as on stdout. */
function openDirect(path: string): ReportFile {
  // appending: a `/dev/stdout` the shell opened with `>` or `>>` goes on where the shell's file is
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND);
  return descriptorFile(fd, () => undefined);
}

function openReplacing(path: string, old: Stats | undefined): ReportFile {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  // the handlers first: a signal with none kills the process at once, between creating the file and watching for it
  liveTemporaries.add(tmp);
  if (liveTemporaries.size === 1) watchSignals();
  const forget = () => {
    liveTemporaries.delete(tmp);
    try {
      unlinkSync(tmp);
    } catch {
      // already gone, or renamed into place
    }
    if (liveTemporaries.size === 0) unwatchSignals();
  };
  let fd: number;
  try {
    fd = openSync(tmp, 'wx', 0o644);
  } catch (e) {
    liveTemporaries.delete(tmp);
    if (liveTemporaries.size === 0) unwatchSignals();
    throw e;
  }
  try {
    if (old) {
      try {
        fchownSync(fd, old.uid, old.gid);
      } catch {
        // another user's file, not root: the new one is ours
      }
      fchmodSync(fd, old.mode & 0o777);
    }
  } catch (e) {
    closeSync(fd);
    forget();
    throw e;
  }
  // a file with other hard links keeps its inode, so every name sees the report (as with `>`): the finished
  // temporary is copied into it, not renamed over it, and a failed run still leaves it as it was
  const linked = old !== undefined && old.nlink > 1;
  return descriptorFile(fd, (failed) => {
    if (failed === undefined) (linked ? copyFileSync : renameSync)(tmp, path);
    forget();
  });
}

/** A ReportFile over `fd`; `end` gets the failed write's error (or undefined) once the descriptor is closed. */
function descriptorFile(fd: number, end: (failed: Error | undefined) => void): ReportFile {
  let failed: NodeJS.ErrnoException | undefined;
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
        failed = e as NodeJS.ErrnoException;
      }
    },
    closed: () => failed?.code === 'EPIPE',
    commit() {
      try {
        close();
        if (failed && failed.code !== 'EPIPE') throw failed;
        end(failed);
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
        // a descriptor that failed to write: a temporary is removed next, a device keeps what it got
      }
      end(new Error('aborted'));
    },
  };
}

/** Temporaries not yet renamed or removed: an interrupted run removes them before it ends. */
const liveTemporaries = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function removeTemporaries(): void {
  for (const tmp of liveTemporaries)
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  liveTemporaries.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  removeTemporaries();
  unwatchSignals();
  // dying of the signal itself, as without this handler: the shell sees 130 (INT), 143 (TERM), 129 (HUP)
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function watchSignals(): void {
  process.on('exit', removeTemporaries);
  for (const s of SIGNALS) process.on(s, onSignal);
}

function unwatchSignals(): void {
  process.off('exit', removeTemporaries);
  for (const s of SIGNALS) process.off(s, onSignal);
}
