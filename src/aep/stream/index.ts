/**
 * The explicit list of AEP stream (cross-event) rules, in the order they run.
 * DESIGN.md §Rules: `create(opts) -> {onEvent, onEnd}`.
 *
 * Every rule is built with `trackedRule` (tracker.ts): the rules of one run share one
 * `AepStreamTracker`, which dedupes redelivery first (AEP-0001 §7.4) and computes each
 * event's cross-event facts once. A redelivered event reaches only `aep/redelivery` and
 * `aep/state-cap`. `aep/state-cap` must stay last.
 */
import type { StreamRule } from '../../core/rule.ts';
import type { AepEvent } from '../event.ts';
import { ackCause } from './ack-cause.ts';
import { ackExclusive } from './ack-exclusive.ts';
import { ackWindow } from './ack-window.ts';
import { attentionSubject } from './attention-subject.ts';
import { attentionTerminal } from './attention-terminal.ts';
import { attentionUnknownRequest } from './attention-unknown-request.ts';
import { commandUnacked } from './command-unacked.ts';
import { endedWithOpenAttention } from './ended-with-open-attention.ts';
import { epochRegression } from './epoch-regression.ts';
import { formValuesCapture } from './form-values-capture.ts';
import { formValuesChoice } from './form-values-choice.ts';
import { formValuesNotForm } from './form-values-not-form.ts';
import { formValuesRequired } from './form-values-required.ts';
import { formValuesType } from './form-values-type.ts';
import { formValuesUnknownKey } from './form-values-unknown-key.ts';
import { formValuesUnverifiable } from './form-values-unverifiable.ts';
import { idCollision } from './id-collision.ts';
import { openAtEnd } from './open-at-end.ts';
import { redelivery } from './redelivery.ts';
import { respondInvalidAccepted } from './respond-invalid-accepted.ts';
import { runTerminal } from './run-terminal.ts';
import { seqRegression } from './seq-regression.ts';
import { sessionEnded } from './session-ended.ts';
import { stateCap } from './state-cap.ts';

/**
 * Caps and flags for AEP stream state (command-line options). Exceeding a cap is reported
 * once by `aep/state-cap`; the check goes on with less state, it never crashes.
 */
export interface AepStreamOptions {
  /** Most `(source, session)` keys held at once (least recently active forgotten first). */
  maxSessions: number;
  /**
   * Most open work held at once: open runs, open attention requests and commands awaiting
   * their ack. Completed work does not count (it leaves a compact marker,
   * bounded with `maxIds`; see tracker.ts). New open work is not tracked while full.
   */
  maxOpen: number;
  /**
   * Most `(source, id)` digests kept for identity checks (oldest forgotten first). The same
   * bound applies, separately, to the compact markers of completed work (run and request
   * terminals, ack decisions) and to the compact entries of ended sessions.
   */
  maxIds: number;
  /**
   * The ack window in milliseconds (AEP-0004 §3: `hello.capabilities.control.ack_window_ms`,
   * default 10 000): an ack whose `time` is later than its command's by more is reported.
   */
  ackWindowMs: number;
}

/** Default caps and the default ack window (documented in the README). */
export const DEFAULT_AEP_STREAM_OPTIONS: AepStreamOptions = { maxSessions: 100_000, maxOpen: 100_000, maxIds: 5_000_000, ackWindowMs: 10_000 };

/** AEP stream rules, in order: identity, ordering, lifecycle, attention, control, forms, end, caps. */
export const AEP_STREAM_RULES: readonly StreamRule<AepEvent, AepStreamOptions>[] = [
  idCollision,
  redelivery,
  epochRegression,
  seqRegression,
  runTerminal,
  sessionEnded,
  endedWithOpenAttention,
  attentionTerminal,
  attentionSubject,
  attentionUnknownRequest,
  ackCause,
  ackExclusive,
  ackWindow,
  respondInvalidAccepted,
  formValuesType,
  formValuesRequired,
  formValuesChoice,
  formValuesUnknownKey,
  formValuesNotForm,
  formValuesCapture,
  formValuesUnverifiable,
  openAtEnd,
  commandUnacked,
  stateCap,
];
