/**
 * {@link AhpMessage}: one parsed AHP wire message as the per-event rules and the stream
 * analyzers see it, with what the message-schema stage (src/ahp/rules/schema.ts) decided about
 * it: its kind (from the JSON-RPC shape), whether its ids can be trusted, the event it carries
 * and its elicitation body, parsed once. Its own module so that the stream model, the rules and
 * the driver all import it without importing each other.
 * AHP base/events.md §Common message envelope.
 */
import type { ParsedEvent } from '../core/rule.ts';
import type { ElicitationBody } from './elicitation-body.ts';

/** Which transport binding an input is read as. */
export type AhpBinding = 'stdio' | 'http' | 'registration';

/**
 * What kind of wire message a line is (from its JSON-RPC shape). `event` is a bare catalogue
 * event validated against an event root (the upstream manifest's `eventSchema`); never on the wire.
 */
export type AhpMessageKind =
  | 'intercept-request'
  | 'observe-notification'
  | 'capabilities-request'
  | 'response'
  | 'error-response'
  | 'registration'
  | 'event'
  | 'unknown';

/**
 * One AHP message as rules see it, filled by the message-schema stage before any rule runs.
 * `wireValid` is true when the stage found no wire-level problem (the wire root, JSON-RPC
 * structure, method) and the line has no duplicate member name, i.e. the message's kind and
 * ids can be trusted for correlation; only such messages reach the stream analyzers.
 */
export interface AhpMessage extends ParsedEvent {
  kind: AhpMessageKind;
  /** `params.event` when an object (for a bare event root: the value itself). */
  event?: Record<string, unknown>;
  /**
   * Where the event that the per-event rules check sits in the message: `/params/event` for a
   * hooks/intercept or hooks/observe message, `""` for a bare event root; absent when the
   * message carries no event to check.
   */
  eventPointer?: string;
  /**
   * The MCP body of a `user.elicitation.request` / `.result` event at {@link eventPointer},
   * parsed once by the message-schema stage (AHP interaction-payloads.md §MCP elicitation binding).
   */
  elicitation?: ElicitationBody;
  wireValid: boolean;
  /**
   * The binding the message was read under (src/ahp/driver.ts). Over HTTP a request's response
   * is the HTTP response to its POST (AHP base/transports/http.md AHP-HTTP-001), not a later
   * message of the same input.
   */
  binding?: AhpBinding;
}

/** The `hooks` of a registration document, when it is one with a list of hooks. */
export function registrationHooks(msg: AhpMessage): unknown[] | undefined {
  if (msg.kind !== 'registration' || !Array.isArray(msg.value.hooks)) return undefined;
  return msg.value.hooks;
}
