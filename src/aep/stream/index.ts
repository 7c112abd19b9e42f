/**
 * The explicit list of AEP stream (cross-event) rules, in the order they run, and the
 * analyzers' options. Each rule is stateless (`defineStreamRule`, src/core/engine.ts): it reads
 * the facts that the analyzers of {@link AepStreamModel} (model.ts) computed for the event, or
 * their state at the end of input. A redelivered event carries only its redelivery fact
 * (identity.ts), so only `aep/redelivery` and `aep/state-cap` report on it. `aep/state-cap`
 * stays last.
 */
import type { FactRule } from '../../core/engine.ts';
import { ackCause } from './ack-cause.ts';
import { ackExclusive } from './ack-exclusive.ts';
import { ackWindow } from './ack-window.ts';
import { attentionSubject } from './attention-subject.ts';
import { attentionTerminal } from './attention-terminal.ts';
import { attentionRequestMissing } from './attention-request-missing.ts';
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
import { idUnverifiable } from './id-unverifiable.ts';
import type { AepFacts, AepStreamState } from './model.ts';
import { openAtEnd } from './open-at-end.ts';
import { redelivery } from './redelivery.ts';
import { respondInvalidAccepted } from './respond-invalid-accepted.ts';
import { respondValuesChoice } from './respond-values-choice.ts';
import { respondValuesRequired } from './respond-values-required.ts';
import { respondValuesType } from './respond-values-type.ts';
import { runTerminal } from './run-terminal.ts';
import { seqRegression } from './seq-regression.ts';
import { sessionEnded } from './session-ended.ts';
import { stateCap } from './state-cap.ts';

export { DEFAULT_AEP_STREAM_OPTIONS, type AepStreamOptions } from './options.ts';
export { AepStreamModel, aepStreamStats, type AepFacts, type AepStreamState, type AepStreamStats } from './model.ts';

/** An AEP stream rule: a verdict over {@link AepFacts} and the {@link AepStreamState} of the run. */
export type AepStreamRule = FactRule<AepFacts, AepStreamState>;

/** AEP stream rules, in order: identity, ordering, lifecycle, attention, control, forms, end, caps. */
export const AEP_STREAM_RULES = [
  idCollision,
  idUnverifiable,
  redelivery,
  epochRegression,
  seqRegression,
  runTerminal,
  sessionEnded,
  endedWithOpenAttention,
  attentionTerminal,
  attentionSubject,
  attentionUnknownRequest,
  attentionRequestMissing,
  ackCause,
  ackExclusive,
  ackWindow,
  respondInvalidAccepted,
  formValuesType,
  respondValuesType,
  formValuesRequired,
  respondValuesRequired,
  formValuesChoice,
  respondValuesChoice,
  formValuesUnknownKey,
  formValuesNotForm,
  formValuesCapture,
  formValuesUnverifiable,
  openAtEnd,
  commandUnacked,
  stateCap,
] as const satisfies readonly AepStreamRule[];

/** The id of an AEP stream rule (a misspelled id is a compile error). */
export type AepStreamRuleId = (typeof AEP_STREAM_RULES)[number]['id'];
