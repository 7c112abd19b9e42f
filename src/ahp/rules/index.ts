/**
 * The AHP per-message rules (docs/architecture.md §Rules): the message-schema stage's rules
 * (schema.ts: one per `x-rule` of schemas/ahp/, reported by the stage that runs first on every
 * message) and the per-event rules the Engine runs after it, grouped by concern:
 * - message.ts: intercept request id = `params.event.id`, attention text shape;
 * - elicitation.ts: the MCP elicitation binding (body, mode, action, content, sensitive forms and URLs);
 * - config.ts: no managed secret in a configuration change; a config.change.after that names no changed setting;
 * - changes.ts: task/workspace after events and file updates that change nothing;
 * - registration.ts: backend id uniqueness, literal secrets;
 * - credentials.ts: no credential in an MCP tool descriptor or the event `source`;
 * - reasoning.ts: reasoning parts only in assistant messages.
 * Each rule's metadata sits with its check; this module only lists them.
 */
import type { RuleMeta } from '../../core/rule.ts';
import { changeAfterNoop, fileChangeNoop } from './changes.ts';
import { configAfterUnchanged, configManagedSecret } from './config.ts';
import { credentialExposed } from './credentials.ts';
import { reasoningOutsideAssistant } from './reasoning.ts';
import { ELICITATION_RULES } from './elicitation.ts';
import { attentionShape, interceptIdMismatch } from './message.ts';
import { registrationDuplicateId, registrationLiteralSecret } from './registration.ts';
import { AHP_SCHEMA_RULES } from '../schema/stage.ts';

/** The per-event rules, in the order they run (and report) on each message. */
export const AHP_EVENT_RULES = [
  interceptIdMismatch,
  ...ELICITATION_RULES,
  attentionShape,
  configAfterUnchanged,
  changeAfterNoop,
  fileChangeNoop,
  registrationDuplicateId,
  registrationLiteralSecret,
  configManagedSecret,
  credentialExposed,
  reasoningOutsideAssistant,
] as const;

const S = AHP_SCHEMA_RULES;
const [elicitationBody, modeMismatch, actionMismatch, content, formSensitive, urlSecret] = ELICITATION_RULES;

/** Every per-message rule (schema stage and per-event), in catalogue order (RULES.md). */
export const AHP_MESSAGE_RULES: readonly RuleMeta[] = Object.freeze([
  S['ahp/wire-root'],
  S['ahp/jsonrpc'],
  S['ahp/method'],
  S['ahp/protocol-version'],
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
  modeMismatch,
  actionMismatch,
  content,
  formSensitive,
  urlSecret,
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
  reasoningOutsideAssistant,
]);
