import { defineEventRule } from '../../core/engine.ts';
import { checksOf } from '../elicitation-body.ts';
import type { AhpMessage } from '../message.ts';
import { renderMessage } from '../../core/message.ts';
import { messageKey, type RuleContext } from '../../core/rule.ts';
import { MCP_BODY_TEMPLATES } from '../schema/templates.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  invalidJson:
    'The body text of the elicitation {kind} must be the complete serialized MCP {body}, but it has a JSON syntax error at character {index}.',
  tooDeep:
    'The body text of the elicitation {kind} must be the complete serialized MCP {body}, but it has nesting deeper than {depth} levels (the limit `--max-depth`; library: `maxDepth`).',
  duplicateDiffers:
    'The serialized MCP {body} repeats the member name at {innerPointer} with differing values; which copy counts is undefined, so duplicate member names are rejected and the body is not checked further.',
  duplicateEqual:
    'The serialized MCP {body} repeats the member name at {innerPointer} (the copies are equal); duplicate member names are rejected.',
  duplicatesDiffer:
    'The serialized MCP {body} repeats member names with differing values; which copy counts is undefined, so the body is not checked further.',
  notObject: 'In the serialized MCP {body}: must be a JSON object, found {found}.',
  jsonRpcEnvelope:
    "The body text of the elicitation request is a JSON-RPC envelope (`jsonrpc` with `method` or `params`, no `message`), but it must be the COMPLETE MCP {body} object, not the JSON-RPC envelope: serialize the envelope's `params` member.",
  mode: 'In {innerPointer} of the serialized MCP {body}: `mode` must be "form" or "url" (absent means form).',
  answerValue:
    'In {innerPointer} of the serialized MCP {body}: an answer value must be a string, number, boolean or array of strings, found {found}.',
  fieldNoType:
    'In {innerPointer} of the serialized MCP {body}: `type` is required; a form field schema must be one of the published primitive or enum shapes (`type` string, number, integer, boolean or array).',
  fieldShape:
    'In {innerPointer} of the serialized MCP {body}: a form field schema must be one of the published primitive or enum shapes (`type` string, number, integer, boolean or array).',
  beyondDouble:
    'In {innerPointer} of the serialized MCP {body}: must be a number a double holds (MCP schema.ts types it `number`), found a literal beyond the double range.',
  beyondDoubleRoot:
    'In the serialized MCP {body}: must be a number a double holds (MCP schema.ts types it `number`), found a literal beyond the double range.',
  noDefinition: 'In the serialized MCP {body}: the pinned MCP extraction has no `{def}` definition.',
} as const;

const BODY = { request: 'elicitation/create params', result: 'ElicitResult' } as const;

/** Findings in embedded JSON point at the part's `text`; `partPointer` and `innerPointer` are in their args. */
export const elicitationBody = defineEventRule({
  id: 'ahp/elicitation-body',
  severity: 'error',
  description:
    'A body-selected elicitation request/result text is complete MCP JSON without duplicate keys that satisfies the pinned 2025-11-25 subset.',
  detail:
    'A repeated member whose copies differ leaves the value undetermined: only the repeat is reported (saying the copies differ) and no rule reads the body, so findings never depend on member order. A number the pinned schema.ts types `number` (a field\'s minimum, maximum, lengths and item counts, a number default, an answer value) is one a double holds: schema.ts, the source of truth for MCP types, means an IEEE 754 double, and RFC 8259 §6 lets an implementation limit the range it accepts, so a literal beyond it (1e400, read as Infinity) makes the body invalid, for a bound and an answer alike (never a bound silently ignored); inside `_meta`, free-form JSON, such a literal is accepted. A request text holding a JSON-RPC envelope where the params object belongs (`jsonrpc` with `method` or `params`, and no `message`, which both params variants require) is one finding that says so ("not the JSON-RPC envelope"), not the members a params object lacks, and no rule reads it as params; MCP params are open, so a params object that also has a `jsonrpc` member is not an envelope. A URL request\'s `url` is a URI (the schema\'s format) and, when http or https, a valid URL ("MUST contain a valid URL"): one a URL parser takes, with `//` and a host after the scheme (RFC 9110 §4.2.1-§4.2.2; `https://` alone is a URI, not a URL, and `https:host`, `https:/host` or `https:///host`, which a URL parser repairs into `https://host/`, name no host).',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: MESSAGES,
  sharedMessages: MCP_BODY_TEMPLATES,
  types: ['user.elicitation.request', 'user.elicitation.result'],
  check(msg: AhpMessage, ctx) {
    const c = checksOf(msg.elicitation);
    if (!c) return;
    const { checks, partPointer } = c;
    const { parsed, textPointer: pointer, kind } = checks;
    // the common case, a clean body: nothing to report (no Set or closure made for it)
    if (
      parsed.ok &&
      parsed.duplicates.length === 0 &&
      checks.differingCopies.length === 0 &&
      checks.problems.length === 0
    )
      return;
    const body = BODY[kind];
    if (!parsed.ok) {
      const args = { kind, body, partPointer, innerPointer: '' };
      if (parsed.kind === 'invalid-json')
        ctx.report({ pointer, messageId: 'invalidJson', args: { ...args, index: parsed.index + 1 } });
      else ctx.report({ pointer, messageId: 'tooDeep', args: { ...args, depth: parsed.depth - 1 } });
      return;
    }
    // one finding per distinct sentence (a member name repeated thrice is one finding)
    const seen = new Set<string>();
    const once = (messageId: string, innerPointer: string, more: Record<string, string> = {}) => {
      const args = { body, partPointer, innerPointer, ...more };
      // an MCP schema error's template is the shared table's, its id chosen by the schema stage
      const shared = MCP_BODY_TEMPLATES[messageId];
      const key =
        shared === undefined ? JSON.stringify([messageId, innerPointer, more]) : renderMessage(shared, args, '');
      if (seen.has(key)) return;
      seen.add(key);
      if (shared === undefined) ctx.report({ pointer, messageId: messageKey(MESSAGES, messageId), args });
      else (ctx as unknown as RuleContext).report({ pointer, messageId, args });
    };
    const differ = new Set(checks.differingCopies);
    for (const d of parsed.duplicates) once(differ.has(d.pointer) ? 'duplicateDiffers' : 'duplicateEqual', d.pointer);
    // a differing repeat beyond the listed ones still decides that nothing else is checked
    if (differ.size && !parsed.duplicates.some((d) => differ.has(d.pointer))) once('duplicatesDiffer', '');
    for (const p of checks.problems) once(p.messageId, p.inner, p.args as Record<string, string>);
  },
});
