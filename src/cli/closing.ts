/**
 * The closing lines of the stream verbs (`redact`, `downlevel`, `filter`, `convert`): one helper, so the same input says
 * the same thing the same way whichever verb read it (README §Share a log safely, §Subscription filters).
 */

/** The `aep` verbs that write a stream; each closing line on stderr starts `aep VERB:`. */
export type StreamVerb = 'redact' | 'downlevel' | 'filter' | 'convert';

/** What a stream verb did with the lines it read. */
export interface LineCounts {
  written: number;
  /** Lines not written: with error findings, refused by the verb, or of another format. */
  rejected: number;
  /** Of `rejected`, the lines the verb refused with a sentence of their own (`refusedWhy` says why). */
  refused: number;
  /** Of `rejected`, the lines of another format (`aep/bridge-input`, one finding for all, as `validate` gives). */
  setAside: number;
  /** Of `written`, the lines with error findings (`redact`, `downlevel`: copied at their level). */
  invalidWritten: number;
}

const s = (n: number): string => (n === 1 ? '' : 's');

/** The one closing line of a stream verb whose input has no line but blank ones (`validate` exits 1 too). */
export const emptyInputLine = (verb: StreamVerb): string =>
  `aep ${verb}: the input holds no event (jsonl/empty-input above), so nothing was written\n`;

/**
 * The closing line of a stream verb that wrote every line but found errors about the input itself (a byte order mark,
 * bytes after a whole gzip stream): the run fails as `validate` would, and says no line was left out.
 */
export const inputErrorsLine = (verb: StreamVerb, written: number): string =>
  `aep ${verb}: no line left out, ${written} written; the error findings above are about the input, not a line\n`;

/**
 * The two clauses: the lines left out (`3 lines not written (...: see above)`) and those written with findings.
 * `unit`: what the input is made of (`message` for OTLP protobuf, which has no lines).
 */
function clauses(c: LineCounts, refusedWhy: string, unit = 'line'): [left: string, invalid: string] {
  const found = c.rejected - c.refused - c.setAside;
  const why = [
    ...(found > 0 ? [`${found} with error findings`] : []),
    ...(c.refused > 0 ? [`${c.refused} ${refusedWhy}`] : []),
    ...(c.setAside > 0 ? [`${c.setAside} not AEP 0.1 event${s(c.setAside)}, aep/bridge-input or aep/version`] : []),
  ];
  const n = c.invalidWritten;
  return [
    c.rejected > 0 ? `${c.rejected} ${unit}${s(c.rejected)} not written (${why.join(', ')}: see above)` : '',
    n > 0
      ? `${n} line${s(n)} with error findings written, at the level ${n === 1 ? 'it declares' : 'they declare'} or lower (findings above)`
      : '',
  ];
}

/** The clause about the lines left out and those written with findings, for a verb's own closing line; `''` if none. */
export function notWrittenClause(c: LineCounts, refusedWhy = '', unit = 'line'): string {
  return clauses(c, refusedWhy, unit)
    .filter((x) => x !== '')
    .join('; ');
}

/** The closing line of a failed stream verb run: what it left out, what it wrote, and what it wrote with findings. */
export function closingLine(verb: StreamVerb, c: LineCounts, refusedWhy = ''): string {
  const [left, invalid] = clauses(c, refusedWhy);
  return `aep ${verb}: ${[left, `${c.written} written`, invalid].filter((x) => x !== '').join('; ')}\n`;
}

/** How a stream verb's run ended, as far as its own count line cares. */
export interface RunEnd {
  /** The input held no line but blank ones: {@link emptyInputLine} said so. */
  empty: boolean;
  /** The reader went away first: the run ended quietly. */
  stopped?: boolean;
  /** `-o FILE` could not be written: its error line is the last word. */
  writeFailed?: boolean;
  /** Nothing was read (an input not opened, `-o` refused): its error line is the last word. */
  unread?: boolean;
}

/**
 * Whether a stream verb's own count line (`aep redact: 2 of 9 events redacted ...`) is due: never after the reader went
 * away, after a failed write (to `-o` or stdout: the error line is the last word) or a run that read nothing, or when
 * the input held no event to count (an empty input, or lines of another format only, which their aep/bridge-input
 * finding already names).
 */
export function countLineDue(end: RunEnd, events: number, stdoutFailed: boolean): boolean {
  return !end.empty && !end.stopped && !end.writeFailed && !end.unread && !stdoutFailed && events > 0;
}
