/** Caps of the AHP stream state (README §Options of validate), reported once by `ahp/state-cap`. */
import { DEFAULT_MAX_STATE_MB } from '../../core/state-budget.ts';

/** The caps: each names the analyzer state it bounds. */
export interface AhpStreamOptions {
  /** Most intercept and capabilities requests awaiting a response, held at once (`--max-pending`; correlation.ts). */
  maxPending: number;
  /** Most remembered events, answered request ids and unresolved parent links together (`--max-events`). */
  maxEvents: number;
  /** Memory budget of all stream state together, in MiB (`--max-state-mb`; default 256). */
  maxStateMb: number;
  /** Rows a whole-stream table keeps in memory before its oldest half spills ({@link AHP_SPILL_ROWS}); verdicts stay. */
  spillRows?: number;
}

/** Rows a table holds in memory before it spills, by default (about 1 MB of event rows): docs/benchmarks.md §Item 3. */
export const AHP_SPILL_ROWS = 1 << 15;

/** The rows a whole-stream table of a run with `opts` holds in memory before it spills. */
export function spillRowsOf(opts: AhpStreamOptions): number {
  return opts.spillRows ?? AHP_SPILL_ROWS;
}

/** Default caps (documented in the README). */
export const DEFAULT_AHP_STREAM_OPTIONS: AhpStreamOptions = {
  maxPending: 100_000,
  maxEvents: Infinity,
  maxStateMb: DEFAULT_MAX_STATE_MB,
};
