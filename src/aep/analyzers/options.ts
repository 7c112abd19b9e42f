/** Caps and flags of the AEP stream analyzers, and their defaults (docs/architecture.md §Bounded stream state). */
import { DEFAULT_MAX_STATE_MB } from '../../core/state-budget.ts';

/** Caps of the AEP stream state and the ack window. */
export interface AepStreamOptions {
  /** Most `(source, session)` keys held at once (least recently active forgotten first). */
  maxSessions: number;
  /**
   * Most open work held at once: open runs, open attention requests and commands awaiting
   * their ack (one {@link OpenBudget}, budget.ts). Completed work does not count (it leaves a
   * compact marker, bounded with `maxIds`). New open work is not tracked while full.
   */
  maxOpen: number;
  /**
   * Most `(source, id)` digests kept for identity checks (oldest forgotten first). The same
   * bound applies, separately, to the compact markers of completed work (run and request
   * terminals, ack decisions) and to the compact entries of ended sessions. An upper bound
   * beside {@link maxStateMb}; default: none (the budget decides).
   */
  maxIds: number;
  /** Memory budget of all stream state together, in MiB (`--max-state-mb`, src/core/state-budget.ts; default 256). */
  maxStateMb: number;
  /**
   * The ack window in milliseconds (AEP-0004 §3: `hello.capabilities.control.ack_window_ms`,
   * default 10 000): an ack whose `time` is later than its command's by more is reported.
   */
  ackWindowMs: number;
}

/** Default caps and the default ack window (documented in the README). */
export const DEFAULT_AEP_STREAM_OPTIONS: AepStreamOptions = {
  maxSessions: 100_000,
  maxOpen: 100_000,
  maxIds: Infinity,
  maxStateMb: DEFAULT_MAX_STATE_MB,
  ackWindowMs: 10_000,
};
