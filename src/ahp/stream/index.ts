/**
 * The explicit list of AHP stream (cross-message) rules, in the order they run, and the stream
 * model they read (model.ts: the analyzers, their state and caps). Each rule is a stateless
 * verdict over the typed facts of the analyzers it depends on; `ahp/state-cap` comes last.
 * A rule that splits off a "cannot verify" case sits right after the rule it complements, so
 * findings keep their order.
 */
import { changeAfterMismatch } from './change-after-mismatch.ts';
import { configAfterDenied } from './config-after-denied.ts';
import { effectNotAdvertised } from './effect-not-advertised.ts';
import { elicitationContentSchema } from './elicitation-content-schema.ts';
import { elicitationContentUnverifiable } from './elicitation-content-unverifiable.ts';
import { elicitationModeNotAdvertised } from './elicitation-mode-not-advertised.ts';
import { elicitationResultMode } from './elicitation-result-mode.ts';
import { elicitationServerMismatch } from './elicitation-server-mismatch.ts';
import { elicitationUncorrelated } from './elicitation-uncorrelated.ts';
import { elicitationParentMissing } from './elicitation-parent-missing.ts';
import { elicitationSessionMismatch } from './elicitation-session-mismatch.ts';
import { elicitationSourceMismatch } from './elicitation-source-mismatch.ts';
import { elicitationUnpaired } from './elicitation-unpaired.ts';
import { eventIdReuse } from './event-id-reuse.ts';
import { eventIdUnverifiable } from './event-id-unverifiable.ts';
import { modifyInvalid } from './modify-invalid.ts';
import { modifyUnverifiable } from './modify-unverifiable.ts';
import { openAtEnd } from './open-at-end.ts';
import { parentCycle } from './parent-cycle.ts';
import { parentUnknown } from './parent-unknown.ts';
import { responseDuplicate } from './response-duplicate.ts';
import { responseUncorrelated } from './response-uncorrelated.ts';
import { responseUnmatched } from './response-unmatched.ts';
import { returnInvalid } from './return-invalid.ts';
import { stateCap } from './state-cap.ts';

export { AhpStreamModel, type AhpFacts, type AhpStreamRule, type AhpStreamState } from './model.ts';
export { DEFAULT_AHP_STREAM_OPTIONS, type AhpStreamOptions } from './options.ts';

/** AHP stream rules, in the order they run. */
export const AHP_STREAM_RULES = [
  responseUnmatched,
  responseUncorrelated,
  responseDuplicate,
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
  configAfterDenied,
  changeAfterMismatch,
  eventIdReuse,
  eventIdUnverifiable,
  openAtEnd,
  stateCap,
] as const;

/** The id of an AHP stream rule (a misspelled id is a compile error). */
export type AhpStreamRuleId = (typeof AHP_STREAM_RULES)[number]['id'];
