/**
 * Caps of the AHP stream state (command-line options; README "Options of validate"): the memory
 * budget of all state (src/core/state-budget.ts) and count caps as upper bounds.
 * Exceeding one is reported once by `ahp/state-cap`; nothing crashes.
 */
import { DEFAULT_MAX_STATE_MB } from '../../core/state-budget.ts';

/** The caps: each names the analyzer state it bounds. */
export interface AhpStreamOptions {
  /** Most intercept and capabilities requests awaiting a response, held at once (`--max-pending`; correlation.ts). */
  maxPending: number;
  /**
   * Most remembered events, answered request ids and unresolved parent links together
   * (`--max-events`; identity.ts, correlation.ts, lineage.ts; the oldest are forgotten first).
   * An upper bound beside {@link maxStateMb}; default: none (the budget decides).
   */
  maxEvents: number;
  /** Memory budget of all stream state together, in MiB (`--max-state-mb`; default 256). */
  maxStateMb: number;
}

/** Default caps (documented in the README). */
export const DEFAULT_AHP_STREAM_OPTIONS: AhpStreamOptions = {
  maxPending: 100_000,
  maxEvents: Infinity,
  maxStateMb: DEFAULT_MAX_STATE_MB,
};
