/**
 * The explicit list of AEP stream (cross-event) rules, in the order they run.
 * DESIGN.md §Rules: `create(opts) -> {onEvent, onEnd}`.
 */
import type { StreamRule } from '../../core/rule.ts';
import type { AepEvent } from '../event.ts';

/** Caps and flags for AEP stream state (command-line options). */
export interface AepStreamOptions {
  /** Most `(source, session)` keys held open at once. */
  maxSessions: number;
  /** Most open attention requests / pending commands held at once. */
  maxOpen: number;
  /** Most `(source, id)` digests kept for identity checks. */
  maxIds: number;
}

/** Default caps (documented in the README). */
export const DEFAULT_AEP_STREAM_OPTIONS: AepStreamOptions = { maxSessions: 100_000, maxOpen: 100_000, maxIds: 5_000_000 };

/** AEP stream rules. */
export const AEP_STREAM_RULES: readonly StreamRule<AepEvent, AepStreamOptions>[] = [];
