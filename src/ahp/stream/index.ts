/**
 * The explicit list of AHP stream (cross-message) rules, in the order they run.
 * DESIGN.md §Rules: `create(opts) -> {onEvent, onEnd}`. Every rule reads the facts of the shared
 * {@link AhpStreamTracker} (tracker.ts: state, keys, caps); `ahp/state-cap` comes last.
 */
import type { StreamRule } from '../../core/rule.ts';
import type { AhpMessage } from '../driver.ts';
import { configAfterDenied } from './config-after-denied.ts';
import { effectNotAdvertised } from './effect-not-advertised.ts';
import { elicitationContentSchema } from './elicitation-content-schema.ts';
import { elicitationModeNotAdvertised } from './elicitation-mode-not-advertised.ts';
import { elicitationResultMode } from './elicitation-result-mode.ts';
import { elicitationServerMismatch } from './elicitation-server-mismatch.ts';
import { elicitationUnpaired } from './elicitation-unpaired.ts';
import { eventIdReuse } from './event-id-reuse.ts';
import { modifyInvalid } from './modify-invalid.ts';
import { openAtEnd } from './open-at-end.ts';
import { parentCycle } from './parent-cycle.ts';
import { parentUnknown } from './parent-unknown.ts';
import { responseDuplicate } from './response-duplicate.ts';
import { responseUnmatched } from './response-unmatched.ts';
import { stateCap } from './state-cap.ts';
import type { AhpStreamTracker } from './tracker.ts';

/**
 * Caps for AHP stream state (command-line options; DESIGN.md §Principles, bounded state).
 * Exceeding one is reported once by `ahp/state-cap`; nothing crashes.
 */
export interface AhpStreamOptions {
  /** Most intercept and capabilities requests awaiting a response, held at once (`--max-pending`). */
  maxPending: number;
  /**
   * Most remembered events, answered request ids and unresolved parent links together
   * (`--max-events`; the oldest are forgotten first).
   */
  maxEvents: number;
}

/** Default caps (documented in the README). */
export const DEFAULT_AHP_STREAM_OPTIONS: AhpStreamOptions = { maxPending: 100_000, maxEvents: 1_000_000 };

/** AHP stream rules. */
export const AHP_STREAM_RULES: readonly StreamRule<AhpMessage, AhpStreamOptions>[] = [
  responseUnmatched,
  responseDuplicate,
  effectNotAdvertised,
  modifyInvalid,
  elicitationModeNotAdvertised,
  elicitationUnpaired,
  elicitationServerMismatch,
  elicitationResultMode,
  elicitationContentSchema,
  parentUnknown,
  parentCycle,
  configAfterDenied,
  eventIdReuse,
  openAtEnd,
  stateCap,
];

export type { AhpStreamTracker };
