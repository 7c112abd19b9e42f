/** Mark: where an earlier event was (no text, no value), and its Location for a finding's `related` list. */
import type { Location } from './finding.ts';
import type { ParsedEvent } from './rule.ts';

/** Where an event was: its input, 1-based line and (when kept) the line's start byte offset. */
export interface Mark {
  file: string;
  line: number;
  byteOffset?: number;
}

/** The mark of `ev`. */
export function markOf(ev: ParsedEvent): Mark {
  return { file: ev.source, line: ev.line, byteOffset: ev.byteOffset };
}

/** A {@link Location} for a mark: column 1, the start of the event's line. */
export function markLocation(m: Mark, pointer = ''): Location {
  const loc: Location = { source: m.file, line: m.line, column: 1, pointer };
  if (m.byteOffset !== undefined) loc.byteOffset = m.byteOffset;
  return loc;
}

/**
 * True when the line at `later` may come after `m` in their stream: a later line of the same input, or a line of
 * another input (a mark does not keep the order of inputs).
 */
export function mayFollow(later: Mark, m: Mark): boolean {
  return later.file !== m.file || later.line > m.line;
}
