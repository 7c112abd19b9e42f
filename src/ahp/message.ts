/**
 * AhpMessage: one parsed AHP message as rules and analyzers see it; its own module, so they import it, not each other.
 */
import type { ParsedEvent } from '../core/rule.ts';
import type { ElicitationBody } from './elicitation-body.ts';

/** Which transport binding an input is read as. */
export type AhpBinding = 'stdio' | 'http' | 'registration';

/** What kind of wire message a line is (from its JSON-RPC shape). */
export type AhpMessageKind =
  | 'intercept-request'
  | 'observe-notification'
  | 'capabilities-request'
  | 'response'
  | 'error-response'
  | 'registration'
  | 'event'
  | 'unknown';

/** One AHP message as rules see it, filled by the message-schema stage before any rule runs. */
export interface AhpMessage extends ParsedEvent {
  kind: AhpMessageKind;
  /** `params.event` when an object (for a bare event root: the value itself). */
  event?: Record<string, unknown>;
  /** Where the event that the per-event rules check sits in the message. */
  eventPointer?: string;
  /** The MCP body of a `user.elicitation.request` / `.result` event, parsed once by the message-schema stage. */
  elicitation?: ElicitationBody;
  wireValid: boolean;
  binding?: AhpBinding;
}

/** The `hooks` of a registration document, when it is one with a list of hooks. */
export function registrationHooks(msg: AhpMessage): unknown[] | undefined {
  if (msg.kind !== 'registration' || !Array.isArray(msg.value.hooks)) return undefined;
  return msg.value.hooks;
}

/**
 * The event type that selects a message's per-event rules (`Engine.eventRulesOf`): the type of the event the rules
 * check (`eventPointer` set), else `undefined` (only the rules that name no `types` see the message).
 */
export function ruleType(msg: AhpMessage): unknown {
  return msg.eventPointer === undefined ? undefined : msg.event?.type;
}
