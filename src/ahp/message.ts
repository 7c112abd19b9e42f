/**
 * {@link AhpMessage}: one parsed AHP wire message as the stream analyzers see it, with its kind
 * (from the JSON-RPC shape) and its per-message verdict. Its own module so that the stream
 * model and the driver both import it without importing each other.
 * AHP base/events.md §Common message envelope.
 */
import type { ParsedEvent } from '../core/rule.ts';
import type { AhpIssue } from './validate.ts';

/** Which transport binding an input is read as. */
export type AhpBinding = 'stdio' | 'http' | 'registration';

/** What kind of wire message a line is (from its JSON-RPC shape). */
export type AhpMessageKind = 'intercept-request' | 'observe-notification' | 'capabilities-request' | 'response' | 'error-response' | 'registration' | 'unknown';

/**
 * One AHP message as stream rules see it. `issues` are its per-message findings (already
 * reported); `wireValid` is true when no wire-root or JSON-RPC error was found, i.e. the
 * message's kind and ids can be trusted for correlation.
 */
export interface AhpMessage extends ParsedEvent {
  kind: AhpMessageKind;
  /** `params.event` of an intercept request or observe notification, when an object. */
  event?: Record<string, unknown>;
  issues: readonly AhpIssue[];
  wireValid: boolean;
  /** True when no per-message error at all was found. */
  valid: boolean;
}
