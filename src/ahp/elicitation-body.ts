/**
 * The parsed MCP value behind a `user.elicitation.request` / `user.elicitation.result` event,
 * for the cross-event checks (AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)).
 *
 * The message validator (`elicitation.ts`) already parses and validates a body-selected text part
 * against the pinned MCP subset and reports every problem (`ahp/elicitation-body`). This module
 * only re-reads a body that passed there: given the issues of the message, a body with any
 * `ahp/elicitation-body` issue is `invalid` and never parsed again, and metadata / omit / gap
 * views are `view` (never parsed as executable MCP payloads). The parse uses the same exact
 * JSON parser (`core/json.ts`).
 */
import { parseJsonText } from '../core/json.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The body of an elicitation event. */
export type ElicitationBody =
  /** A body-selected text part holding a valid MCP value. */
  | { status: 'parsed'; value: Obj; partPointer: string }
  /** A metadata, omit or gap view: no MCP value is available (and none may be assumed). */
  | { status: 'view'; partPointer: string }
  /** The body failed the message checks (`ahp/elicitation-body`). */
  | { status: 'invalid'; partPointer: string }
  /** The event carries no request/result part. */
  | { status: 'absent'; partPointer: string };

/** An issue as far as this module needs it. */
interface IssueLike {
  ruleId: string;
  pointer: string;
}

/**
 * The MCP body of `event` (a `user.elicitation.request` or `.result` at `eventPointer` in its
 * message, usually `/params/event`). `issues` are the message's issues: a body with an
 * `ahp/elicitation-body` issue is reported as `invalid`. Never throws.
 */
export function elicitationBody(event: Obj, eventPointer: string, issues: readonly IssueLike[]): ElicitationBody {
  const kind = event.type === 'user.elicitation.request' ? 'request' : 'result';
  const partPointer = `${eventPointer}/elicitation/${kind}`;
  const el = event.elicitation;
  const part = isObj(el) ? el[kind] : undefined;
  if (!isObj(part)) return { status: 'absent', partPointer };
  if (part.selection !== 'body' || 'gap' in part || typeof part.text !== 'string') return { status: 'view', partPointer };
  if (issues.some((i) => i.ruleId === 'ahp/elicitation-body' && (i.pointer === partPointer || i.pointer.startsWith(partPointer + '/')))) return { status: 'invalid', partPointer };
  const parsed = parseJsonText(part.text);
  if (!parsed.ok || parsed.duplicates.length || !isObj(parsed.value)) return { status: 'invalid', partPointer };
  return { status: 'parsed', value: parsed.value, partPointer };
}
