/**
 * The catalogue of rule ids emitted by `ahp validate` message checks ({@link validateAhpMessage}
 * and {@link validateStdioText} in `validate.ts`).
 *
 * Spec citations name the AHP draft document (paths under `spec/draft/` of
 * agenthooksprotocol/agent-hooks-protocol) and section.
 */
import type { Severity } from '../core/finding.ts';

/** One message-level rule: stable id, default severity, one-sentence description, spec citation. */
export interface AhpRuleInfo {
  id: string;
  severity: Severity;
  description: string;
  spec: string;
}

/** Every rule id the AHP message checks emit, in a stable order. */
export const AHP_MESSAGE_RULES: readonly AhpRuleInfo[] = Object.freeze([
  {
    id: 'ahp/wire-root',
    severity: 'error',
    description: 'The value is exactly one of the six AHP wire messages (intercept request or response, JSON-RPC error response, observe notification, capabilities request or response).',
    spec: 'AHP base/versioning.md §JSON-RPC (AHP-RPC-001, AHP-RPC-002)',
  },
  {
    id: 'ahp/jsonrpc',
    severity: 'error',
    description: 'JSON-RPC 2.0 structure: jsonrpc "2.0", request ids, notifications without id, responses with result xor error.',
    spec: 'AHP base/versioning.md §JSON-RPC; base/events.md §Common message envelope',
  },
  {
    id: 'ahp/method',
    severity: 'error',
    description: 'The method is hooks/intercept (request), hooks/observe (notification) or hooks/capabilities (request).',
    spec: 'AHP base/versioning.md §JSON-RPC (AHP-RPC-002); capability-auth.md §Discovery and honest capabilities',
  },
  {
    id: 'ahp/protocol-version',
    severity: 'error',
    description: 'Every params object and successful result carries protocolVersion "draft".',
    spec: 'AHP base/versioning.md §Versioning (AHP-VER-001)',
  },
  {
    id: 'ahp/method-params',
    severity: 'error',
    description: 'The params of each method carry the members the method requires (protocolVersion, event, capabilities).',
    spec: 'AHP base/events.md §Intercept request, §Observe notification; capability-auth.md §Discovery',
  },
  {
    id: 'ahp/method-result',
    severity: 'error',
    description: 'A successful result carries the members of its method and never mixes discovery and interception payloads.',
    spec: 'AHP base/events.md §Intercept response; capability-auth.md §Discovery and honest capabilities',
  },
  {
    id: 'ahp/intercept-id-mismatch',
    severity: 'error',
    description: 'The JSON-RPC id of a hooks/intercept request equals params.event.id.',
    spec: 'AHP base/events.md §Intercept request (AHP-CORE-004)',
  },
  {
    id: 'ahp/event-type',
    severity: 'error',
    description: 'The event type belongs to the draft catalogue, and an intercepted event is one of the interceptable types.',
    spec: 'AHP base/versioning.md §Unknown fields; capability-auth.md §Discovery and honest capabilities',
  },
  {
    id: 'ahp/envelope',
    severity: 'error',
    description: 'Common event fields: id, absolute URI source, RFC 3339 time, type, session, parentEventId, turn, items, gaps, native, synthesized.',
    spec: 'AHP base/events.md §Common event fields; execution-payloads.md',
  },
  {
    id: 'ahp/extensions',
    severity: 'error',
    description: 'Extension keys are reverse-DNS names.',
    spec: 'AHP base/events.md §Extensions (AHP-EXT-001)',
  },
  {
    id: 'ahp/overlay',
    severity: 'error',
    description: 'The event-specific payload of the event type is present and well formed; nested protocol payloads are closed.',
    spec: 'AHP interaction-payloads.md; execution-payloads.md §Required event-specific payloads; task-workspace-lineage.md §Payloads',
  },
  {
    id: 'ahp/message-role',
    severity: 'error',
    description: 'user.message.inbound messages have role user; user.message.outbound messages have role assistant.',
    spec: 'AHP interaction-payloads.md',
  },
  {
    id: 'ahp/attention-shape',
    severity: 'warning',
    description: 'user.attention message and title are lists of text parts in the draft schema; a single text part (the prose wording) is accepted with a warning.',
    spec: 'AHP interaction-payloads.md (attention message and title)',
  },
  {
    id: 'ahp/content-part',
    severity: 'error',
    description: 'Content parts are one of the eight closed variants: inline text/plain text, immutable non-text non-JSON attachment references, and metadata/omit/gap views without text or body.',
    spec: 'AHP content-upload.md §Canonical messages and content selection (AHP-CONTENT-001, AHP-CONTENT-002)',
  },
  {
    id: 'ahp/canonical-message',
    severity: 'error',
    description: 'Canonical messages have id, a canonical role and ordered parts; the role belongs to the message.',
    spec: 'AHP content-upload.md §Canonical messages and content selection (AHP-CONTENT-001)',
  },
  {
    id: 'ahp/content-selection',
    severity: 'error',
    description: 'A content selection has a required default and category keys, each body, metadata or omit.',
    spec: 'AHP content-upload.md §Canonical messages and content selection; base/registration.md §Subscription fields',
  },
  {
    id: 'ahp/elicitation-body',
    severity: 'error',
    description: 'A body-selected elicitation request/result text is complete MCP JSON without duplicate keys that satisfies the pinned 2025-11-25 subset.',
    spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  },
  {
    id: 'ahp/elicitation-mode-mismatch',
    severity: 'error',
    description: 'The envelope elicitation mode equals the mode of the parsed MCP request (absent means form).',
    spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  },
  {
    id: 'ahp/elicitation-action-mismatch',
    severity: 'error',
    description: 'The envelope elicitation action equals the action of the parsed MCP result.',
    spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  },
  {
    id: 'ahp/elicitation-content',
    severity: 'error',
    description: 'MCP result content appears only for an accepted form result.',
    spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  },
  {
    id: 'ahp/effect',
    severity: 'error',
    description: 'Intercept response effects are closed deny, allow, ask, modify, message, return, flow or inject effects with valid modify target values; an unknown effect invalidates the response.',
    spec: 'AHP base/composition.md §Atomic effect acceptance; capability-auth.md §Extension policy',
  },
  {
    id: 'ahp/capabilities',
    severity: 'error',
    description: 'Capability advertisements and manifests: effects list, modify targets with replace or merge, flow operations, inject context, elicitation modes, event-semantic bounds.',
    spec: 'AHP base/capabilities.md (AHP-CAP-001, AHP-CAP-002); capability-auth.md §Discovery and honest capabilities, §Event-semantic capability bounds',
  },
  {
    id: 'ahp/registration',
    severity: 'error',
    description: 'Portable registration documents: non-empty hooks, transports, authentication bindings, subscriptions with events, mode-specific timeout and failure policy, content selection.',
    spec: 'AHP base/registration.md (AHP-REG-001); base/failure.md; capability-auth.md §Authentication bindings',
  },
  {
    id: 'ahp/registration-duplicate-id',
    severity: 'error',
    description: 'Backend ids are unique within a registration document.',
    spec: 'AHP base/registration.md §Backend fields',
  },
  {
    id: 'ahp/registration-literal-secret',
    severity: 'error',
    description: 'Registration authentication carries credential references, never literal secret values.',
    spec: 'AHP capability-auth.md §Authentication bindings; base/registration.md §HTTP transport fields',
  },
  {
    id: 'ahp/stdio-framing',
    severity: 'error',
    description: 'stdio text is one complete JSON object per physical line, each terminated by a single LF, with no CR and no blank lines.',
    spec: 'AHP base/transports/stdio.md §Framing (AHP-STDIO-001)',
  },
  {
    id: 'ahp/duplicate-key',
    severity: 'error',
    description: 'A JSON object has no duplicate member names.',
    spec: 'RFC 8259 §4; AHP base/versioning.md §JSON-RPC',
  },
]);

const BY_ID = new Map(AHP_MESSAGE_RULES.map((r) => [r.id, r]));

/**
 * The rule entry for `id`.
 * @throws Error when `id` is not in {@link AHP_MESSAGE_RULES} (a bug: every emitted id is listed).
 */
export function ahpRule(id: string): AhpRuleInfo {
  const r = BY_ID.get(id);
  if (!r) throw new Error(`unknown AHP rule id ${id}`);
  return r;
}
