/** Caps and flags of the AEP stream analyzers, and their defaults (docs/architecture.md §Bounded stream state). */
import { DEFAULT_MAX_STATE_MB } from '../../core/state-budget.ts';

/** Caps of the AEP stream state and the ack window. */
export interface AepStreamOptions {
  /** Most `(source, session)` keys held at once (least recently active forgotten first). */
  maxSessions: number;
  /** Most open work held at once (completed work does not count); new open work is not tracked while full. */
  maxOpen: number;
  /** Most `(source, id)` digests kept, and apart completion marks and ended sessions (beside maxStateMb). */
  maxIds: number;
  /** Memory budget of all stream state together, in MiB (`--max-state-mb`, src/core/state-budget.ts; default 256). */
  maxStateMb: number;
  /** The ack window in ms (AEP-0004 §3 `ack_window_ms`, default 10 000). */
  ackWindowMs: number;
  /** Rows a whole-stream table keeps in memory before it spills (src/core/spill-*.ts defaults); verdicts never depend on it. */
  spillRows?: number;
  /** `recommended` also runs the rules of AEP-0001 §5.1's RECOMMENDED forms (`--forms`, src/aep/definition.ts). */
  forms?: 'required' | 'recommended';
  /** The sub-profile checked (`aep-0007`, the checker's `profile`): down-leveled copies of its types by its annotations. */
  profile?: string;
}

/** Default caps and the default ack window (documented in the README). */
export const DEFAULT_AEP_STREAM_OPTIONS: AepStreamOptions = {
  maxSessions: 100_000,
  maxOpen: 100_000,
  maxIds: Infinity,
  maxStateMb: DEFAULT_MAX_STATE_MB,
  ackWindowMs: 10_000,
};
