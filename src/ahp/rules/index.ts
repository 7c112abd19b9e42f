/**
 * THE list of AHP rules in catalogue (RULES.md) order; the Engine's per-event and stream lists derive from it, so the
 * position is also the reporting order on one message.
 */
import { unsupportedAnswered } from './unsupported-answered.ts';
import { advertisementExceedsManifest } from './advertisement-exceeds-manifest.ts';
import { manifestUnverifiable } from './manifest-unverifiable.ts';
import { continuationAllowance } from './continuation-allowance.ts';
import { manifestLimitUnexplained } from './manifest-limit-unexplained.ts';
import { timeoutRangeNarrow } from './timeout-range-narrow.ts';
import { deniedCallRan } from './denied-call-ran.ts';
import { failurePolicyUnverifiable } from './failure-policy-unverifiable.ts';
import { interceptAfterDenial } from './intercept-after-denial.ts';
import { observeBeforeIntercept } from './observe-before-intercept.ts';
import { callIdMismatch } from './call-id-mismatch.ts';
import { parentCallId } from './parent-call-id.ts';
import { parentUnverifiable } from './parent-unverifiable.ts';
import { changeAfterDenied } from './change-after-denied.ts';
import type { EventRule, RuleMeta } from '../../core/rule.ts';
import type { AhpStreamRule } from '../analyzers/model.ts';
import type { AhpMessage } from '../message.ts';
import { AHP_SCHEMA_RULES } from '../schema/rules.ts';
import { attemptIdReused } from './attempt-id-reused.ts';
import { attemptOutcomeConflict } from './attempt-outcome-conflict.ts';
import { attemptUsageDuplicate } from './attempt-usage-duplicate.ts';
import { attentionShape } from './attention-shape.ts';
import { callBoundaryDuplicate } from './call-boundary-duplicate.ts';
import { turnEndDuplicate } from './turn-end-duplicate.ts';
import { changeAfterMismatch } from './change-after-mismatch.ts';
import { changeAfterNoop } from './change-after-noop.ts';
import { configAfterDenied } from './config-after-denied.ts';
import { configAfterUnchanged } from './config-after-unchanged.ts';
import { configManagedSecret } from './config-managed-secret.ts';
import { credentialExposed } from './credential-exposed.ts';
import { currencyUnknown } from './currency-unknown.ts';
import { endpointInsecure } from './endpoint-insecure.ts';
import { eventSecret } from './event-secret.ts';
import { effectNotAdvertised } from './effect-not-advertised.ts';
import { errorDataSecret } from './error-data-secret.ts';
import { elicitationActionMismatch } from './elicitation-action-mismatch.ts';
import { elicitationBody } from './elicitation-body.ts';
import { elicitationContent } from './elicitation-content.ts';
import { elicitationContentSchema } from './elicitation-content-schema.ts';
import { elicitationContentUnverifiable } from './elicitation-content-unverifiable.ts';
import { elicitationFormLink } from './elicitation-form-link.ts';
import { elicitationFormSensitive } from './elicitation-form-sensitive.ts';
import { elicitationModeMismatch } from './elicitation-mode-mismatch.ts';
import { elicitationModeNotAdvertised } from './elicitation-mode-not-advertised.ts';
import { elicitationParentMissing } from './elicitation-parent-missing.ts';
import { elicitationResultCredential } from './elicitation-result-credential.ts';
import { elicitationResultMode } from './elicitation-result-mode.ts';
import { elicitationServerMismatch } from './elicitation-server-mismatch.ts';
import { elicitationSessionMismatch } from './elicitation-session-mismatch.ts';
import { elicitationSourceMismatch } from './elicitation-source-mismatch.ts';
import { elicitationUncorrelated } from './elicitation-uncorrelated.ts';
import { elicitationUnpaired } from './elicitation-unpaired.ts';
import { elicitationUrlInsecure } from './elicitation-url-insecure.ts';
import { elicitationUrlSecret } from './elicitation-url-secret.ts';
import { eventIdReuse } from './event-id-reuse.ts';
import { eventIdUnverifiable } from './event-id-unverifiable.ts';
import { fileChangeNoop } from './file-change-noop.ts';
import { injectIdReused } from './inject-id-reused.ts';
import { interceptIdMismatch } from './intercept-id-mismatch.ts';
import { modifyInvalid } from './modify-invalid.ts';
import { modifyUnverifiable } from './modify-unverifiable.ts';
import { observationLeak } from './observation-leak.ts';
import { sessionStartNotFirst } from './session-start-not-first.ts';
import { permissionBeforeCall } from './permission-before-call.ts';
import { observationUnverifiable } from './observation-unverifiable.ts';
import { openAtEnd } from './open-at-end.ts';
import { parentCycle } from './parent-cycle.ts';
import { parentUnknown } from './parent-unknown.ts';
import { reasoningOutsideAssistant } from './reasoning-outside-assistant.ts';
import { registrationDuplicateId } from './registration-duplicate-id.ts';
import { registrationLiteralSecret } from './registration-literal-secret.ts';
import { requestIdPending } from './request-id-pending.ts';
import { responseDuplicate } from './response-duplicate.ts';
import { responseUncorrelated } from './response-uncorrelated.ts';
import { responseUnmatched } from './response-unmatched.ts';
import { responseUnverifiable } from './response-unverifiable.ts';
import { returnInvalid } from './return-invalid.ts';
import { stateCap } from './state-cap.ts';

const S = AHP_SCHEMA_RULES;

/** Every AHP rule, in catalogue order. A "cannot verify" rule sits right after the rule it complements. */
export const AHP_RULES = [
  S['ahp/wire-root'],
  S['ahp/jsonrpc'],
  S['ahp/http-status-unverifiable'],
  S['ahp/method'],
  S['ahp/protocol-version'],
  S['ahp/protocol-version-offered'],
  S['ahp/method-params'],
  S['ahp/method-result'],
  interceptIdMismatch,
  S['ahp/event-type'],
  S['ahp/envelope'],
  S['ahp/extensions'],
  S['ahp/overlay'],
  S['ahp/message-role'],
  attentionShape,
  S['ahp/content-part'],
  S['ahp/canonical-message'],
  S['ahp/content-selection'],
  elicitationBody,
  elicitationModeMismatch,
  elicitationActionMismatch,
  elicitationContent,
  elicitationFormSensitive,
  elicitationUrlSecret,
  elicitationUrlInsecure,
  elicitationFormLink,
  elicitationResultCredential,
  configAfterUnchanged,
  changeAfterNoop,
  fileChangeNoop,
  S['ahp/effect'],
  S['ahp/capabilities'],
  S['ahp/registration'],
  registrationDuplicateId,
  registrationLiteralSecret,
  configManagedSecret,
  credentialExposed,
  eventSecret,
  endpointInsecure,
  currencyUnknown,
  errorDataSecret,
  reasoningOutsideAssistant,
  responseUnmatched,
  responseUncorrelated,
  responseDuplicate,
  requestIdPending,
  responseUnverifiable,
  unsupportedAnswered,
  manifestLimitUnexplained,
  timeoutRangeNarrow,
  advertisementExceedsManifest,
  manifestUnverifiable,
  continuationAllowance,
  effectNotAdvertised,
  modifyInvalid,
  modifyUnverifiable,
  returnInvalid,
  elicitationModeNotAdvertised,
  elicitationUnpaired,
  elicitationParentMissing,
  elicitationUncorrelated,
  elicitationSourceMismatch,
  elicitationSessionMismatch,
  elicitationServerMismatch,
  elicitationResultMode,
  elicitationContentSchema,
  elicitationContentUnverifiable,
  parentUnknown,
  parentCycle,
  parentCallId,
  parentUnverifiable,
  configAfterDenied,
  changeAfterDenied,
  changeAfterMismatch,
  callBoundaryDuplicate,
  turnEndDuplicate,
  sessionStartNotFirst,
  permissionBeforeCall,
  attemptIdReused,
  attemptOutcomeConflict,
  attemptUsageDuplicate,
  injectIdReused,
  observationLeak,
  observationUnverifiable,
  eventIdReuse,
  eventIdUnverifiable,
  interceptAfterDenial,
  observeBeforeIntercept,
  deniedCallRan,
  failurePolicyUnverifiable,
  callIdMismatch,
  openAtEnd,
  stateCap,
] as const satisfies readonly RuleMeta[];

const ALL: readonly RuleMeta[] = AHP_RULES;
const isEventRule = (r: RuleMeta): r is EventRule<AhpMessage> => 'check' in r;
const isStreamRule = (r: RuleMeta): r is AhpStreamRule => 'onEvent' in r || 'onEnd' in r;

/** The per-event rules, in the order they run (and report) on each message. */
export const AHP_EVENT_RULES: readonly EventRule<AhpMessage>[] = ALL.filter(isEventRule);

/** The stream rules, in the order they run; `ahp/state-cap` comes last. */
export const AHP_STREAM_RULES: readonly AhpStreamRule[] = ALL.filter(isStreamRule);

/** The id of an AHP rule (a misspelled id is a compile error). */
export type AhpRuleId = (typeof AHP_RULES)[number]['id'];

/** The rules decided on one message alone (the schema stage's and the per-event rules), in catalogue order. */
export const AHP_MESSAGE_RULES: readonly RuleMeta[] = ALL.filter((r) => !isStreamRule(r));
