/**
 * The package entry (README §Library API): one `export ... from` line per module. No top-level await in its import
 * graph, so `require('agent-conformance')` works (Node >= 20.19).
 */
export {
  validate,
  validateStream,
  type ValidateOptions,
  type ValidationResult,
  type ValidationRun,
} from './api/validate.ts';
export { checkEvent, createSession, type CheckSession, type SessionOptions } from './api/session.ts';
export { createReporter, formatReport, ruleCatalogue, rules, type ReportOptions, type RuleInfo } from './api/report.ts';
export { fixtureExitCode, runFixtures, type FixtureRunOptions } from './api/fixtures.ts';
export type { Input, Inputs, StreamInput, WebReadableStream } from './api/inputs.ts';
export type { AepOptions, AhpOptions, CommonOptions, OptionsFor, Protocol } from './api/protocols.ts';
export {
  AEP_RULE_IDS,
  AHP_RULE_IDS,
  LIVE_RULE_IDS,
  type AepRuleId,
  type AhpRuleId,
  type KnownRuleId,
  type RuleId,
} from './generated/rule-ids.ts';
export { VERSION } from './api/version.ts';
export {
  createRedactor,
  downlevel,
  redact,
  redactEvent,
  type CaptureLevel,
  type DownlevelOptions,
  type RedactOptions,
  type Redactor,
} from './api/capture.ts';
export { SEVERITY_RANK, type Finding, type Location, type Severity } from './core/finding.ts';
export type { Summary } from './core/summary.ts';
export { InputError } from './core/pipeline.ts';
export { RuleCrashError } from './core/rule.ts';
export { ConformanceError, type ErrorKind } from './core/errors.ts';
export {
  DeviationsError,
  FixtureError,
  type CaseResult,
  type CaseStatus,
  type FixtureLayout,
  type FixtureRun,
  type FixtureSummary,
} from './fixture-runner/index.ts';
export type { FormatName } from './report/index.ts';
export type { Output, Reporter } from './report/types.ts';
export type { CatalogueRow } from './report/catalogue.ts';
export type { AhpBinding } from './ahp/message.ts';
export type { AepStreamOptions } from './aep/analyzers/options.ts';
export type { AhpStreamOptions } from './ahp/analyzers/options.ts';
export {
  gateFormValues,
  type FormCaptureCeiling,
  type FormChoice,
  type FormFieldSpec,
  type FormFieldType,
  type FormValue,
  type FormValues,
} from './aep/forms.ts';
export {
  applyEffects,
  checkEffects,
  hostContextOf,
  MODIFY_TARGETS,
  type EffectRejection,
  type EffectsOutcome,
  type EffectsVerdict,
  type HostContext,
  type ModifyTarget,
  type RejectionCode,
  type TargetPermission,
} from './ahp/analyzers/effects.ts';
export { checkEditContext, type EditContextIssue } from './ahp/edit-check.ts';
export {
  answerPhrase,
  answerShapeProblems,
  formAnswerProblems,
  isAnswerValue,
  type AnswerProblem,
} from './ahp/analyzers/form-answer.ts';
export {
  decodeCloudEvents,
  fromCloudEvent,
  toCloudEvent,
  type FromCloudEventResult,
} from './aep/bridges/cloudevents.ts';
export { toOtlp, type OtlpCounts, type OtlpExport, type OtlpOptions } from './aep/bridges/otlp.ts';
export { decodeOtlp, fromOtlp } from './aep/bridges/otlp-decode.ts';
export { toOcsf, type OcsfOptions, type OcsfProjection } from './aep/bridges/ocsf.ts';
export type { BridgeIssue, DecodedEvent, DecodeResult } from './aep/bridges/types.ts';
export { InvalidFilterError, matches, parseFilter, type AttrFilter } from './aep/attr-match.ts';
export { checkEndpoint } from './api/live.ts';
export type { LiveOptions, LiveResult } from './live/check.ts';
export { LiveConnectError } from './live/client.ts';
export { LIVE_CHECKS, LIVE_RULES, type LiveCheck, type LiveRule, type LiveRuleId } from './live/rules.ts';
