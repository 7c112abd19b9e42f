/**
 * The explicit list of AHP stream (cross-message) rules, in the order they run.
 * DESIGN.md §Rules: `create(opts) -> {onEvent, onEnd}`.
 */
import type { StreamRule } from '../../core/rule.ts';
import type { AhpMessage } from '../driver.ts';

/** Caps for AHP stream state (command-line options). */
export interface AhpStreamOptions {
  /** Most intercept requests awaiting a response, held at once. */
  maxPending: number;
  /** Most event ids remembered per run (lineage, retries, elicitation pairs). */
  maxEvents: number;
}

/** Default caps (documented in the README). */
export const DEFAULT_AHP_STREAM_OPTIONS: AhpStreamOptions = { maxPending: 100_000, maxEvents: 1_000_000 };

/** AHP stream rules. */
export const AHP_STREAM_RULES: readonly StreamRule<AhpMessage, AhpStreamOptions>[] = [];
