/**
 * The explicit list of AHP stream (cross-message) rules, in the order they run, and the stream
 * model they read (model.ts: the analyzers, their state and caps). Each rule is a stateless
 * verdict over the typed facts of the analyzers it depends on; `ahp/state-cap` comes last.
 * A rule that splits off a "cannot verify" case sits right after the rule it complements, so
 * findings keep their order.
 */
import { changeAfterMismatch } from '../rules/change-after-mismatch.ts';
import { configAfterDenied } from '../rules/config-after-denied.ts';
import { effectNotAdvertised } from '../rules/effect-not-advertised.ts';
import { elicitationContentSchema } from '../rules/elicitation-content-schema.ts';
import { elicitationContentUnverifiable } from '../rules/elicitation-content-unverifiable.ts';
import { elicitationModeNotAdvertised } from '../rules/elicitation-mode-not-advertised.ts';
import { elicitationResultMode } from '../rules/elicitation-result-mode.ts';
import { elicitationServerMismatch } from '../rules/elicitation-server-mismatch.ts';
import { elicitationUncorrelated } from '../rules/elicitation-uncorrelated.ts';
import { elicitationParentMissing } from '../rules/elicitation-parent-missing.ts';
import { elicitationSessionMismatch } from '../rules/elicitation-session-mismatch.ts';
import { elicitationSourceMismatch } from '../rules/elicitation-source-mismatch.ts';
import { elicitationUnpaired } from '../rules/elicitation-unpaired.ts';
import { eventIdReuse } from '../rules/event-id-reuse.ts';
import { eventIdUnverifiable } from '../rules/event-id-unverifiable.ts';
import { modifyInvalid } from '../rules/modify-invalid.ts';
import { modifyUnverifiable } from '../rules/modify-unverifiable.ts';
import { openAtEnd } from '../rules/open-at-end.ts';
import { parentCycle } from '../rules/parent-cycle.ts';
import { parentUnknown } from '../rules/parent-unknown.ts';
import { responseDuplicate } from '../rules/response-duplicate.ts';
import { responseUncorrelated } from '../rules/response-uncorrelated.ts';
import { responseUnmatched } from '../rules/response-unmatched.ts';
import { returnInvalid } from '../rules/return-invalid.ts';
import { stateCap } from '../rules/state-cap.ts';

export { AhpStreamModel, type AhpFacts, type AhpStreamRule, type AhpStreamState } from '../analyzers/model.ts';
export { DEFAULT_AHP_STREAM_OPTIONS, type AhpStreamOptions } from '../analyzers/options.ts';

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
