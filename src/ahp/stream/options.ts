/**
 * Caps of the AHP stream state (command-line options; README "Options of validate").
 * Exceeding one is reported once by `ahp/state-cap`; nothing crashes.
 */

/** The caps: each names the analyzer state it bounds. */
export interface AhpStreamOptions {
  /** Most intercept and capabilities requests awaiting a response, held at once (`--max-pending`; correlation.ts). */
  maxPending: number;
  /**
   * Most remembered events, answered request ids and unresolved parent links together
   * (`--max-events`; identity.ts, correlation.ts, lineage.ts; the oldest are forgotten first).
   */
  maxEvents: number;
}

/** Default caps (documented in the README). */
export const DEFAULT_AHP_STREAM_OPTIONS: AhpStreamOptions = { maxPending: 100_000, maxEvents: 1_000_000 };
