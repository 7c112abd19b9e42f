/** The typed MCP body of an elicitation event, parsed once by the message-schema stage. */
import { parseUrl } from './sensitive-names.ts';
import type { ParseOutcome } from '../core/json.ts';
import type { MessageArgs } from '../core/message.ts';
import { isObj, type Obj } from '../core/value.ts';

/** One problem of a body against the pinned MCP subset: `inner` pointer and an `ahp/elicitation-body` template. */
export interface BodyProblem {
  inner: string;
  messageId: string;
  args: MessageArgs;
}

/** The binding checks of a body-selected part, present when the event's `elicitation` payload passed its schema. */
export interface ElicitationChecks {
  kind: 'request' | 'result';
  /** The event's `elicitation` object (envelope `mode`, `action`). */
  envelope: Obj;
  /** Pointer of the part's `text` member (where findings about the embedded JSON point). */
  textPointer: string;
  /** The exact JSON parse of the text (duplicate member names listed). */
  parsed: ParseOutcome;
  /** Pointers of repeated member names whose copies differ (src/core/json-copies.ts). */
  differingCopies: readonly string[];
  /** Problems against the pinned MCP subset; empty when it conforms or is not determined ({@link differingCopies}). */
  problems: readonly BodyProblem[];
}

/** The body of an elicitation event. */
export type ElicitationBody =
  /** A body-selected text part holding a valid MCP value (an object, no duplicate keys, conforming when checked). */
  | { status: 'parsed'; value: Obj; partPointer: string; checks?: ElicitationChecks }
  /** A metadata, omit or gap view: no MCP value is available (and none may be assumed). */
  | { status: 'view'; partPointer: string }
  /** The body text is not a valid MCP value (reported by `ahp/elicitation-body` when checked). */
  | { status: 'invalid'; partPointer: string; checks?: ElicitationChecks }
  | { status: 'absent'; partPointer: string };

/** The binding checks of an elicitation body with its part pointer, when they apply. */
export function checksOf(
  b: ElicitationBody | undefined,
): { checks: ElicitationChecks; partPointer: string } | undefined {
  if (!b || (b.status !== 'parsed' && b.status !== 'invalid') || !b.checks) return undefined;
  // the body itself has both members (no object per rule per elicitation message)
  return b as { checks: ElicitationChecks; partPointer: string };
}

/** The one problem of a request text holding a JSON-RPC envelope, whose value is no MCP value. */
export const JSON_RPC_ENVELOPE = 'jsonRpcEnvelope';

/** The parsed MCP value of a checked body, when an object that does not depend on member order. */
export function parsedObject(checks: ElicitationChecks): Obj | undefined {
  return checks.parsed.ok &&
    checks.differingCopies.length === 0 &&
    isObj(checks.parsed.value) &&
    checks.problems[0]?.messageId !== JSON_RPC_ENVELOPE
    ? checks.parsed.value
    : undefined;
}

/** A URL-mode elicitation request's `url`, as written and parsed (null: ahp/elicitation-body reports it). */
export function requestUrlOf(
  b: ElicitationBody | undefined,
): { c: { checks: ElicitationChecks; partPointer: string }; url: string; u: URL | null } | undefined {
  const c = checksOf(b);
  if (c?.checks.kind !== 'request') return undefined;
  const value = parsedObject(c.checks);
  if (value?.mode !== 'url' || typeof value.url !== 'string') return undefined;
  return { c, url: value.url, u: parseUrl(value.url) };
}
