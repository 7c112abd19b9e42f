import type { EventRule, RuleMeta } from '../../core/rule.ts';
import type { AepStreamRule } from '../analyzers/model.ts';
import { AEP_BRIDGE_RULES } from '../bridges/rules.ts';
import type { AepEvent } from '../event.ts';
import { ENVELOPE_RULES } from '../schema/rules.ts';
import { ackCause } from './ack-cause.ts';
import { ackCauseNotCommand } from './ack-cause-not-command.ts';
import { ackExclusive } from './ack-exclusive.ts';
import { ackWindow } from './ack-window.ts';
import { absenceUnverifiable } from './absence-unverifiable.ts';
import { ackOverdue } from './ack-overdue.ts';
import { assessmentCause } from './assessment-cause.ts';
import { citationCause } from './citation-cause.ts';
import { assessmentLabelText } from './assessment-label-text.ts';
import { assessmentRun } from './assessment-run.ts';
import { assessmentTargetId } from './assessment-target-id.ts';
import { assessmentTargetMismatch } from './assessment-target-mismatch.ts';
import { commandSecondTarget } from './command-second-target.ts';
import { outcomeCause } from './outcome-cause.ts';
import { respondCause } from './respond-cause.ts';
import { respondRequestMissing } from './respond-request-missing.ts';
import { textAnswerPermissive } from './text-answer-permissive.ts';
import { textAnswerRefusal } from './text-answer-refusal.ts';
import { textAnswerUnmapped } from './text-answer-unmapped.ts';
import { attentionAnsweredLate } from './attention-answered-late.ts';
import { attentionTimeoutAnswered } from './attention-timeout-answered.ts';
import { attentionCause } from './attention-cause.ts';
import { attentionRequestMissing } from './attention-request-missing.ts';
import { attentionSeverity } from './attention-severity.ts';
import { stateDeltaPatch } from './state-delta-patch.ts';
import { attentionSubject } from './attention-subject.ts';
import { attentionTerminal } from './attention-terminal.ts';
import { attentionUnknownRequest } from './attention-unknown-request.ts';
import { captureLevel } from './capture-level.ts';
import { captureNone } from './capture-none.ts';
import { commandUnacked } from './command-unacked.ts';
import { captureFullRedacted } from './capture-full-redacted.ts';
import { digestLabelled } from './digest-labelled.ts';
import { digestOriginal } from './digest-original.ts';
import { digestShape } from './digest-shape.ts';
import { identifierCharset } from './identifier-charset.ts';
import { idUlid } from './id-ulid.ts';
import { sourceForm } from './source-form.ts';
import { metadataContent } from './metadata-content.ts';
import { metadataProse } from './metadata-prose.ts';
import { redactionHomePath } from './redaction-home-path.ts';
import { redactionLeakPii } from './redaction-leak-pii.ts';
import { endedWithOpenAttention } from './ended-with-open-attention.ts';
import { epochRegression } from './epoch-regression.ts';
import { formDuplicateId } from './form-duplicate-id.ts';
import { formFieldConstraint } from './form-field-constraint.ts';
import { formFieldMisplaced } from './form-field-misplaced.ts';
import { formFieldsKind } from './form-fields-kind.ts';
import { formLabelPlaceholder } from './form-label-placeholder.ts';
import { formValuesCapture } from './form-values-capture.ts';
import { formValuesChoice } from './form-values-choice.ts';
import { formValuesNotForm } from './form-values-not-form.ts';
import { formValuesRequired } from './form-values-required.ts';
import { formValuesType } from './form-values-type.ts';
import { formValuesUnknownKey } from './form-values-unknown-key.ts';
import { formValuesUnverifiable } from './form-values-unverifiable.ts';
import { idCollision } from './id-collision.ts';
import { idUnverifiable } from './id-unverifiable.ts';
import { idWithheld } from './id-withheld.ts';
import { messageCause } from './message-cause.ts';
import { messageId } from './message-id.ts';
import { openAtEnd } from './open-at-end.ts';
import { promptPlaceholder } from './prompt-placeholder.ts';
import { redactionLeak } from './redaction-leak.ts';
import { redactionLeakProvider } from './redaction-leak-provider.ts';
import { redelivery } from './redelivery.ts';
import { registryProseConflict } from './registry-prose-conflict.ts';
import { respondInvalidAccepted } from './respond-invalid-accepted.ts';
import { respondValuesChoice } from './respond-values-choice.ts';
import { respondValuesRequired } from './respond-values-required.ts';
import { respondValuesType } from './respond-values-type.ts';
import { respondViaControl } from './respond-via-control.ts';
import { runTerminal } from './run-terminal.ts';
import { seqRegression } from './seq-regression.ts';
import { sessionEnded } from './session-ended.ts';
import { stateCap } from './state-cap.ts';
import { streamDeltaMetadata } from './stream-delta-metadata.ts';
import { streamDeltaSeverity } from './stream-delta-severity.ts';
import { streamDeltaText } from './stream-delta-text.ts';
import { streamFactMissing } from './stream-fact-missing.ts';
import { streamFinishedCause } from './stream-finished-cause.ts';
import { streamIdReused } from './stream-id-reused.ts';
import { streamKind } from './stream-kind.ts';
import { streamPayload } from './stream-payload.ts';
import { streamSplitHomePath } from './stream-split-home-path.ts';
import { streamSplitLeak } from './stream-split-leak.ts';
import { streamSplitPii } from './stream-split-pii.ts';
import { streamSubject } from './stream-subject.ts';
import { unitTerminal } from './unit-terminal.ts';

/** The schema rules: the metadata of what the schema stage reports (src/aep/schema/). */
export const AEP_SCHEMA_RULES: readonly RuleMeta[] = Object.values(ENVELOPE_RULES);

/** Every AEP rule in catalogue (RULES.md) and run order; `aep/state-cap` stays the last stream rule. */
export const AEP_RULES: readonly (RuleMeta | EventRule<AepEvent> | AepStreamRule)[] = [
  ...AEP_SCHEMA_RULES,
  captureNone,
  captureLevel,
  formFieldsKind,
  formFieldConstraint,
  formFieldMisplaced,
  formDuplicateId,
  formLabelPlaceholder,
  promptPlaceholder,
  registryProseConflict,
  redactionLeak,
  redactionLeakProvider,
  digestShape,
  digestLabelled,
  digestOriginal,
  redactionHomePath,
  redactionLeakPii,
  metadataContent,
  metadataProse,
  captureFullRedacted,
  identifierCharset,
  idUlid,
  sourceForm,
  idCollision,
  idUnverifiable,
  idWithheld,
  redelivery,
  epochRegression,
  seqRegression,
  runTerminal,
  sessionEnded,
  endedWithOpenAttention,
  attentionTerminal,
  unitTerminal,
  attentionSubject,
  attentionUnknownRequest,
  attentionRequestMissing,
  attentionAnsweredLate,
  attentionTimeoutAnswered,
  attentionCause,
  attentionSeverity,
  stateDeltaPatch,
  // AEP-0007 (--profile aep-0007)
  streamSubject,
  streamIdReused,
  messageId,
  streamKind,
  streamPayload,
  streamDeltaText,
  streamDeltaSeverity,
  streamDeltaMetadata,
  streamSplitLeak,
  streamSplitHomePath,
  streamSplitPii,
  streamFinishedCause,
  messageCause,
  streamFactMissing,
  ackCause,
  ackCauseNotCommand,
  ackExclusive,
  ackWindow,
  ackOverdue,
  commandSecondTarget,
  outcomeCause,
  respondCause,
  respondRequestMissing,
  textAnswerUnmapped,
  textAnswerPermissive,
  textAnswerRefusal,
  assessmentTargetId,
  assessmentTargetMismatch,
  assessmentRun,
  assessmentCause,
  citationCause,
  assessmentLabelText,
  respondViaControl,
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
  absenceUnverifiable,
  stateCap,
  ...AEP_BRIDGE_RULES,
];

const isEventRule = (r: RuleMeta): r is EventRule<AepEvent> => 'check' in r;
const isStreamRule = (r: RuleMeta): r is AepStreamRule => 'onEvent' in r || 'onEnd' in r;

/** The per-event rules: run on an event whose envelope and payload passed. */
export const AEP_EVENT_RULES: readonly EventRule<AepEvent>[] = AEP_RULES.filter(isEventRule);

/** The stream rules: verdicts over the analyzers' facts (src/aep/analyzers/model.ts). */
export const AEP_STREAM_RULES: readonly AepStreamRule[] = AEP_RULES.filter(isStreamRule);
