import type { MessageArgs } from '../../core/message.ts';
import type { RuleMeta } from '../../core/rule.ts';
import { AHP_SCHEMA_TEMPLATES } from './templates.ts';

/** A rule of the schema stage: its metadata, and whether its findings make the message's kind and ids untrustworthy. */
export interface SchemaRule extends RuleMeta {
  readonly wire: boolean;
}

/** One finding of the stage: its rule, pointer, and the rule's template with its args. */
export interface SchemaStageFinding {
  rule: SchemaRule;
  pointer: string;
  messageId: string;
  args?: MessageArgs;
}

/**
 * A schema rule: its own templates, then the schema stage's shared table (src/ahp/schema/templates.ts), unless no
 * schema names it in `x-rule` (`own`: only code reports it, in its own words, so explain lists no shared table).
 */
const schemaRule = <const Id extends string>(
  meta: Omit<SchemaRule, 'messages'> & { id: Id; messages?: RuleMeta['messages']; own?: true },
): SchemaRule & { id: Id } => {
  const { own, ...rest } = meta;
  return own ? rest : { ...rest, sharedMessages: AHP_SCHEMA_TEMPLATES };
};

/** The schema stage's rules in catalogue order (closed: an `x-rule` naming another id is a bug). */
export const AHP_SCHEMA_RULES = {
  'ahp/wire-root': schemaRule({
    id: 'ahp/wire-root',
    wire: true,
    severity: 'error',
    description:
      'The value is exactly one of the six AHP wire messages (intercept request or response, JSON-RPC error response, observe notification, capabilities request or response).',
    spec: 'AHP base/versioning.md §JSON-RPC (AHP-RPC-001, AHP-RPC-002)',
    messages: {
      batch: 'An AHP wire message is a single JSON-RPC object; batches are not used (base/versioning.md §JSON-RPC).',
      notObject: 'An AHP wire message is a JSON-RPC object, found {found}.',
      noShape: 'The value does not match the expected AHP shape.',
      ambiguous: 'The message matches more than one AHP wire message shape.',
    },
  }),
  'ahp/jsonrpc': schemaRule({
    id: 'ahp/jsonrpc',
    wire: true,
    severity: 'error',
    description:
      'JSON-RPC 2.0 structure: jsonrpc "2.0", request ids, notifications without id, responses with result xor error.',
    spec: 'AHP base/versioning.md §JSON-RPC; base/events.md §Common message envelope',
    messages: {
      noMember:
        'A wire message is a request or notification (with `method`) or a response (with `result` or `error`); this object has none of them.',
      noMemberAep:
        'A wire message is a request or notification (with `method`) or a response (with `result` or `error`); this object has none of them. (This line looks like an AEP event: check it with `aep validate`.)',
      aep: 'This line is an AEP event, not an AHP wire message (a JSON-RPC 2.0 object): check the input with `aep validate` (lines like it are not checked as AHP, nor reported one by one).',
      registration:
        "This object has `hooks` and no `jsonrpc`: a registration document (AHP-REG-001), not a wire message (a JSON-RPC 2.0 object). Read it with `--binding registration` (library: `binding: 'registration'`; or name the file `*.registration.json`); objects like it in this input are not checked as wire messages, nor reported one by one.",
    },
  }),
  'ahp/http-status-unverifiable': schemaRule({
    id: 'ahp/http-status-unverifiable',
    own: true,
    wire: true,
    severity: 'info',
    description:
      'An HTTP body that is a JSON object but no JSON-RPC message, or an empty body, is legal only under a status a capture of bodies lacks (not verified).',
    detail:
      'A JSON object with no jsonrpc, method, id or result is what a server may send with a non-success status, and an empty body what an accepted observe notification is answered with. Read for `--binding http` inputs only (README §Decisions on HTTP bodies without their status). Under status 200 such a body breaks AHP-HTTP-001 (a successful response contains the correlated JSON-RPC response); under any other status the exchange is an operational failure and the spec says nothing of its body beyond the JSON media type. A body that is not JSON at all is still a framing error, and one with any of those members is still judged as JSON-RPC (ahp/jsonrpc). It replaces ahp/jsonrpc for such a body, and jsonl/empty-input for a body of zero bytes (one of only whitespace is still not JSON).',
    spec: 'AHP base/transports/http.md §Request and response (AHP-HTTP-001)',
    messages: {
      empty:
        'This HTTP body is empty: what the response to an accepted hooks/observe notification must be (202 or 204 with no body), but a request always has a body and a 200 answer must carry the correlated JSON-RPC response (AHP-HTTP-001). A capture of bodies has no status or direction, so which it was is not verified.',
      body: 'This HTTP body is a JSON object but no JSON-RPC message (it has no `jsonrpc`, `method`, `id` or `result`): legal as the body of a non-success status, which is an operational failure, but a 200 answer must carry the correlated JSON-RPC response (AHP-HTTP-001). A capture of bodies has no status, so which it was is not verified.',
    },
  }),
  'ahp/method': schemaRule({
    id: 'ahp/method',
    wire: true,
    severity: 'error',
    description:
      'The method is hooks/intercept (request), hooks/observe (notification) or hooks/capabilities (request).',
    detail: 'Also cited: capability-auth.md §Discovery and honest capabilities.',
    spec: 'AHP base/versioning.md §JSON-RPC (AHP-RPC-002)',
    messages: {
      unknown: '`method` must be "hooks/intercept", "hooks/observe" or "hooks/capabilities", found {found}.',
    },
  }),
  'ahp/protocol-version': schemaRule({
    id: 'ahp/protocol-version',
    wire: false,
    severity: 'error',
    description: 'Every params object and successful result carries protocolVersion "draft".',
    spec: 'AHP base/versioning.md §Versioning (AHP-VER-001)',
  }),
  'ahp/protocol-version-offered': schemaRule({
    id: 'ahp/protocol-version-offered',
    own: true,
    wire: false,
    severity: 'info',
    description:
      'A request whose `protocolVersion` is a snapshot identifier (a real `YYYY-MM-DD` date) offers another snapshot, which a draft backend declines with -32001.',
    detail:
      'README §Decisions on AHP decisions, responses and advertisements ("A request of another snapshot"): base/versioning.md makes a backend that does not support the supplied version return `unsupported_protocol_version`, so a harness may supply one the backend lacks; the backend\'s side is ahp/unsupported-answered. Read for requests of the wire root only; the rest of the request is still checked as draft. A value that is no snapshot identifier at all (neither "draft" nor a real calendar `YYYY-MM-DD` date: 2026-02-30 is none), and another version in a notification or a result, stay ahp/protocol-version.',
    spec: 'AHP base/versioning.md §Versioning (AHP-VER-001)',
    quote:
      'A backend that does not support the supplied version MUST return the AHP JSON-RPC error `unsupported_protocol_version`.',
    messages: {
      offered:
        'This request offers `protocolVersion` {version:json}, a snapshot identifier (a YYYY-MM-DD date), not "draft": legal for a harness, and a draft backend answers it with the JSON-RPC error -32001 `unsupported_protocol_version` (base/versioning.md); the rest of the request is checked as draft.',
    },
  }),
  'ahp/method-params': schemaRule({
    id: 'ahp/method-params',
    wire: false,
    severity: 'error',
    description:
      'The params of each method carry the members the method requires (protocolVersion, event, capabilities), and a present intercept `state` its members.',
    detail:
      'A present intercept `state` carries `permission` and `candidate` (null or `{value, provenance?}`). Also cited: capability-auth.md §Discovery, §Event-semantic capability bounds (request state); intercept-request.schema.json `params.state`.',
    spec: 'AHP base/events.md §Intercept request, §Observe notification',
    messages: { eventRequired: '`event` is required here.' },
  }),
  'ahp/method-result': schemaRule({
    id: 'ahp/method-result',
    wire: false,
    severity: 'error',
    description:
      'A successful result carries the members of its method and never mixes discovery and interception payloads.',
    detail: 'Also cited: capability-auth.md §Discovery and honest capabilities.',
    spec: 'AHP base/events.md §Intercept response',
  }),
  'ahp/event-type': schemaRule({
    id: 'ahp/event-type',
    wire: false,
    severity: 'error',
    description:
      'The event type belongs to the draft catalogue, and an intercepted event is one of the interceptable types.',
    detail: 'Also cited: capability-auth.md §Discovery and honest capabilities.',
    spec: 'AHP base/versioning.md §Unknown fields',
    messages: {
      unknown:
        '`type` {type} is not an event type of the draft catalogue (the nearest is {nearest:json}); unknown event types are unsupported semantics, not ignorable fields (base/versioning.md §Unknown fields).',
    },
  }),
  'ahp/envelope': schemaRule({
    id: 'ahp/envelope',
    wire: false,
    severity: 'error',
    description:
      'Common event fields: id, RFC 3986 absolute-URI source (no fragment: execution-payloads.md), RFC 3339 time, type, session, parentEventId, turn, items, gaps, native, synthesized.',
    spec: 'AHP base/events.md §Common event fields; execution-payloads.md',
    messages: {
      requiredEvent: '`{member}` is required in every event (base/events.md §Common event fields); {kind} has none.',
    },
  }),
  'ahp/extensions': schemaRule({
    id: 'ahp/extensions',
    wire: false,
    severity: 'error',
    description: 'Extension keys are reverse-DNS names.',
    spec: 'AHP base/events.md §Extensions (AHP-EXT-001)',
  }),
  'ahp/overlay': schemaRule({
    id: 'ahp/overlay',
    wire: false,
    severity: 'error',
    description:
      'The event-specific payload of the event type is present and well formed (tool results in `items`, never an `output` member; a task update names changed fields); nested protocol payloads are closed.',
    detail:
      'Also cited: execution-payloads.md §Execution, calls, and model attempts, §Content and accounting; interaction-payloads.md; base/events.md §Tool invocation and completion; task-workspace-lineage.md §Payloads.',
    spec: 'AHP execution-payloads.md §Required event-specific payloads',
    messages: {
      requiredOverlay: '`{member}` is required in every {type} event; this one{carrier} has none.',
    },
  }),
  'ahp/message-role': schemaRule({
    id: 'ahp/message-role',
    wire: false,
    severity: 'error',
    description: 'user.message.inbound messages have role user; user.message.outbound messages have role assistant.',
    spec: 'AHP interaction-payloads.md',
  }),
  'ahp/content-part': schemaRule({
    id: 'ahp/content-part',
    wire: false,
    severity: 'error',
    description:
      'Content parts are one of the eight closed variants: inline text/plain text, immutable non-text non-JSON attachment references, and metadata/omit/gap views without text or body.',
    detail: 'Requirements: AHP-CONTENT-001, AHP-CONTENT-002.',
    spec: 'AHP content-upload.md §Canonical messages and content selection',
  }),
  'ahp/canonical-message': schemaRule({
    id: 'ahp/canonical-message',
    wire: false,
    severity: 'error',
    description: 'Canonical messages have id, a canonical role and ordered parts; the role belongs to the message.',
    detail:
      'Requirements: AHP-CONTENT-001. A content part where a message belongs (a `kind`, no `role` or `parts`) is one finding, at the list when every item is one (a bare part list is not a message list: execution-payloads.md §Content and accounting), else at each such item.',
    messages: {
      bareList:
        'This is a list of content parts, not a canonical message list: each message wraps its ordered parts as `{id, role, parts}`, and a bare part list is not a message list.',
      barePart:
        'This is a content part, not a canonical message: a message list holds `{id, role, parts}` messages, each wrapping its ordered parts.',
    },
    spec: 'AHP content-upload.md §Canonical messages and content selection',
  }),
  'ahp/content-selection': schemaRule({
    id: 'ahp/content-selection',
    wire: false,
    severity: 'error',
    description: 'A content selection has a required default and category keys, each body, metadata or omit.',
    detail: 'Also cited: base/registration.md §Subscription fields.',
    spec: 'AHP content-upload.md §Canonical messages and content selection',
  }),
  'ahp/effect': schemaRule({
    id: 'ahp/effect',
    wire: false,
    severity: 'error',
    description:
      'Intercept response effects are closed deny, allow, ask, modify, message, return, flow or inject effects with valid modify target values and at most one deny; an unknown effect invalidates a response.',
    detail:
      'A second `deny` in one result is this error at its index, in the wire root too (server/tool-interception.md §Effect list: "Multiple `deny` effects from one backend are invalid"; README §Decisions on AHP decisions, responses and advertisements, "Several deny effects in one response"). Also cited: capability-auth.md §Extension policy.',
    spec: 'AHP base/composition.md §Atomic effect acceptance',
    messages: {
      noShape: 'The effect does not match any closed AHP effect shape.',
      notList: '`effects` is an ordered list of effects; found {found}.',
      denyMultiple:
        'A second `deny` effect in one response: multiple `deny` effects from one backend are invalid (server/tool-interception.md §Effect list, AHP-DEC-001), so the whole response is rejected (base/composition.md §Atomic effect acceptance).',
    },
  }),
  'ahp/capabilities': schemaRule({
    id: 'ahp/capabilities',
    wire: false,
    severity: 'error',
    description:
      'Capability advertisements and manifests: effects list, modify targets with replace or merge, flow operations, inject context, elicitation modes, event-semantic bounds.',
    detail: 'Also cited: capability-auth.md §Discovery and honest capabilities, §Event-semantic capability bounds.',
    spec: 'AHP base/capabilities.md (AHP-CAP-001, AHP-CAP-002)',
  }),
  'ahp/registration': schemaRule({
    id: 'ahp/registration',
    wire: false,
    severity: 'error',
    description:
      'Portable registration documents: non-empty hooks, transports, authentication bindings, subscriptions with events, mode-specific timeout and failure policy, content selection.',
    detail:
      'An HTTP transport `url`, an upload `endpoint` and an OAuth `issuer` are http(s) URLs with `//` and a host after the scheme and a port of at most 65535 ("absolute endpoint URL"; RFC 9110 §4.2.1-§4.2.2): `https://`, `https:///host` and `https:host`, which a URL parser repairs into `https://host/`, name no host. Also cited: base/failure.md; capability-auth.md §Authentication bindings.',
    spec: 'AHP base/registration.md (AHP-REG-001)',
  }),
} as const;

/** The id of a schema-stage rule. */
export type AhpSchemaRuleId = keyof typeof AHP_SCHEMA_RULES;
