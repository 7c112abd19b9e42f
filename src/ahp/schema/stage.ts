/**
 * The AHP message-schema stage (docs/architecture.md §Schema stage): it runs first on every
 * message, before any per-event rule. It validates the value against its root through the
 * schema stage in src/core/schema (the wire root, the registration root, or a root named by
 * the upstream manifest), reports each schema finding under the rule its `x-rule` annotation
 * names, and fills the typed {@link AhpMessage} every later rule reads: its kind (from the
 * JSON-RPC shape), whether its ids can be trusted (`wireValid`: no finding of a wire-level
 * rule), the event it carries and that event's elicitation body, parsed once.
 *
 * The stage's rules are the closed table {@link AHP_SCHEMA_RULES}: each names the schema
 * locations that report under it (the `x-rule` annotations in schemas/ahp/) and whether a
 * finding of it makes the message's JSON-RPC shape untrustworthy (`wire`).
 * Spec: AHP base/versioning.md §JSON-RPC; base/events.md; interaction-payloads.md;
 * content-upload.md; execution-payloads.md; capability-auth.md; base/registration.md.
 */
import { describeValue, type FindingSink } from '../../core/finding.ts';
import { isSelected, type RuleSelection } from '../../core/engine.ts';
import { makeFinding, type ParsedEvent, type RuleMeta } from '../../core/rule.ts';
import { parseElicitationBody } from './elicitation.ts';
import { mapAjvErrors } from './issues.ts';
import type { AhpBinding, AhpMessage, AhpMessageKind } from '../message.ts';
import { ahpEventTypes, ahpSchemas } from './schemas.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A rule of the schema stage: its metadata, and whether its findings make the message's kind and ids untrustworthy. */
export interface SchemaRule extends RuleMeta {
  readonly wire: boolean;
}

const schemaRule = <const Id extends string>(
  id: Id,
  wire: boolean,
  severity: RuleMeta['severity'],
  description: string,
  spec: string,
): SchemaRule & { id: Id } => ({ id, wire, severity, description, spec });

/** The rules of the schema stage, by id (a closed table: an `x-rule` naming another id is a bug). */
export const AHP_SCHEMA_RULES = {
  'ahp/wire-root': schemaRule(
    'ahp/wire-root',
    true,
    'error',
    'The value is exactly one of the six AHP wire messages (intercept request or response, JSON-RPC error response, observe notification, capabilities request or response).',
    'AHP base/versioning.md §JSON-RPC (AHP-RPC-001, AHP-RPC-002)',
  ),
  'ahp/jsonrpc': schemaRule(
    'ahp/jsonrpc',
    true,
    'error',
    'JSON-RPC 2.0 structure: jsonrpc "2.0", request ids, notifications without id, responses with result xor error.',
    'AHP base/versioning.md §JSON-RPC; base/events.md §Common message envelope',
  ),
  'ahp/method': schemaRule(
    'ahp/method',
    true,
    'error',
    'The method is hooks/intercept (request), hooks/observe (notification) or hooks/capabilities (request).',
    'AHP base/versioning.md §JSON-RPC (AHP-RPC-002); capability-auth.md §Discovery and honest capabilities',
  ),
  'ahp/protocol-version': schemaRule(
    'ahp/protocol-version',
    false,
    'error',
    'Every params object and successful result carries protocolVersion "draft".',
    'AHP base/versioning.md §Versioning (AHP-VER-001)',
  ),
  'ahp/method-params': schemaRule(
    'ahp/method-params',
    false,
    'error',
    'The params of each method carry the members the method requires (protocolVersion, event, capabilities); a present intercept `state` carries `permission` and `candidate` (null or `{value, provenance?}`).',
    'AHP base/events.md §Intercept request, §Observe notification; capability-auth.md §Discovery, §Event-semantic capability bounds (request state); intercept-request.schema.json `params.state`',
  ),
  'ahp/method-result': schemaRule(
    'ahp/method-result',
    false,
    'error',
    'A successful result carries the members of its method and never mixes discovery and interception payloads.',
    'AHP base/events.md §Intercept response; capability-auth.md §Discovery and honest capabilities',
  ),
  'ahp/event-type': schemaRule(
    'ahp/event-type',
    false,
    'error',
    'The event type belongs to the draft catalogue, and an intercepted event is one of the interceptable types.',
    'AHP base/versioning.md §Unknown fields; capability-auth.md §Discovery and honest capabilities',
  ),
  'ahp/envelope': schemaRule(
    'ahp/envelope',
    false,
    'error',
    'Common event fields: id, RFC 3986 absolute-URI source (no fragment: execution-payloads.md), RFC 3339 time, type, session, parentEventId, turn, items, gaps, native, synthesized.',
    'AHP base/events.md §Common event fields; execution-payloads.md',
  ),
  'ahp/extensions': schemaRule(
    'ahp/extensions',
    false,
    'error',
    'Extension keys are reverse-DNS names.',
    'AHP base/events.md §Extensions (AHP-EXT-001)',
  ),
  'ahp/overlay': schemaRule(
    'ahp/overlay',
    false,
    'error',
    'The event-specific payload of the event type is present and well formed (tool results in `items`, never an `output` member; a task update names changed fields); nested protocol payloads are closed.',
    'AHP interaction-payloads.md; execution-payloads.md §Required event-specific payloads, §Execution, calls, and model attempts, §Content and accounting; base/events.md §Tool invocation and completion; task-workspace-lineage.md §Payloads',
  ),
  'ahp/message-role': schemaRule(
    'ahp/message-role',
    false,
    'error',
    'user.message.inbound messages have role user; user.message.outbound messages have role assistant.',
    'AHP interaction-payloads.md',
  ),
  'ahp/content-part': schemaRule(
    'ahp/content-part',
    false,
    'error',
    'Content parts are one of the eight closed variants: inline text/plain text, immutable non-text non-JSON attachment references, and metadata/omit/gap views without text or body.',
    'AHP content-upload.md §Canonical messages and content selection (AHP-CONTENT-001, AHP-CONTENT-002)',
  ),
  'ahp/canonical-message': schemaRule(
    'ahp/canonical-message',
    false,
    'error',
    'Canonical messages have id, a canonical role and ordered parts; the role belongs to the message.',
    'AHP content-upload.md §Canonical messages and content selection (AHP-CONTENT-001)',
  ),
  'ahp/content-selection': schemaRule(
    'ahp/content-selection',
    false,
    'error',
    'A content selection has a required default and category keys, each body, metadata or omit.',
    'AHP content-upload.md §Canonical messages and content selection; base/registration.md §Subscription fields',
  ),
  'ahp/effect': schemaRule(
    'ahp/effect',
    false,
    'error',
    'Intercept response effects are closed deny, allow, ask, modify, message, return, flow or inject effects with valid modify target values; an unknown effect invalidates the response.',
    'AHP base/composition.md §Atomic effect acceptance; capability-auth.md §Extension policy',
  ),
  'ahp/capabilities': schemaRule(
    'ahp/capabilities',
    false,
    'error',
    'Capability advertisements and manifests: effects list, modify targets with replace or merge, flow operations, inject context, elicitation modes, event-semantic bounds.',
    'AHP base/capabilities.md (AHP-CAP-001, AHP-CAP-002); capability-auth.md §Discovery and honest capabilities, §Event-semantic capability bounds',
  ),
  'ahp/registration': schemaRule(
    'ahp/registration',
    false,
    'error',
    'Portable registration documents: non-empty hooks, transports, authentication bindings, subscriptions with events, mode-specific timeout and failure policy, content selection.',
    'AHP base/registration.md (AHP-REG-001); base/failure.md; capability-auth.md §Authentication bindings',
  ),
} as const;

/** The id of a schema-stage rule. */
type AhpSchemaRuleId = keyof typeof AHP_SCHEMA_RULES;

/** One finding of the stage: its rule (from the closed table), RFC 6901 pointer and sentence. */
export interface SchemaStageFinding {
  rule: SchemaRule;
  pointer: string;
  message: string;
}

function ruleOf(id: string): SchemaRule {
  const r = (AHP_SCHEMA_RULES as Record<string, SchemaRule>)[id];
  if (!r) throw new Error(`the AHP schemas name rule ${id}, which is not a rule of the schema stage`);
  return r;
}

const found = (id: AhpSchemaRuleId, pointer: string, message: string): SchemaStageFinding => ({
  rule: AHP_SCHEMA_RULES[id],
  pointer,
  message,
});

/**
 * What to validate a value as.
 * - `'message'`: an AHP wire message (the wire root).
 * - `'registration'`: a portable registration document.
 * - any other string: an upstream manifest `schema` path such as
 *   `"schema/draft/intercept-request.schema.json"` (only the file name and an optional
 *   `#/$defs/<event type>` fragment matter), mapped to our equivalent root: `schema.json` (wire
 *   root), `intercept-request`, `intercept-response`, `intercept-no-effect-response`,
 *   `intercept-deny-response`, `observe-notification`, `capabilities-request`,
 *   `capabilities-response`, `json-rpc-message`, `error-response`, `registration`, `event`
 *   (any catalogue event), an event type with dots as dashes (`tool-before`), or
 *   `catalogue-event.schema.json#/$defs/<type>`.
 */
export type AhpRoot = 'message' | 'registration' | string;

/** Options of {@link validateAhpMessage} (src/run/ahp-message.ts) and of the stage. */
export interface ValidateAhpOptions {
  /** The root to validate against; default `'message'`. */
  root?: AhpRoot;
  /**
   * Also validate `params.event` against this event root (an {@link AhpRoot} naming an event,
   * e.g. `"schema/draft/tool-before.schema.json"`); its findings point under `/params/event`.
   */
  eventSchema?: string;
}

/** A resolved root: the wire root, the registration root, one message shape or one event root. */
export type RootSpec =
  | { kind: 'wire' }
  | { kind: 'registration' }
  | { kind: 'schema'; ref: string }
  | { kind: 'event'; ref: string };

const MESSAGE_ROOTS: Record<string, string> = {
  'intercept-request': 'interceptRequest',
  'intercept-response': 'interceptResponse',
  'intercept-no-effect-response': 'noEffectResponse',
  'intercept-deny-response': 'denyResponse',
  'observe-notification': 'observeNotification',
  'capabilities-request': 'capabilitiesRequest',
  'capabilities-response': 'capabilitiesResponse',
  'json-rpc-message': 'jsonRpcMessage',
  'error-response': 'errorResponse',
};

const rootCache = new Map<string, RootSpec>();

/**
 * Resolve an {@link AhpRoot} to one of our schema roots.
 * @throws Error when the root names no schema we have an equivalent for.
 */
export function resolveRoot(root: AhpRoot): RootSpec {
  const hit = rootCache.get(root);
  if (hit) return hit;
  let spec: RootSpec | undefined;
  if (root === 'message') spec = { kind: 'wire' };
  else if (root === 'registration') spec = { kind: 'registration' };
  else {
    const [pathPart, fragment] = root.split('#', 2) as [string, string | undefined];
    const file = pathPart.slice(pathPart.lastIndexOf('/') + 1);
    const base = file.replace(/\.schema\.json$|\.json$/, '');
    const types = ahpEventTypes();
    const fromFragment = fragment?.match(/^\/\$defs\/(.+)$/)?.[1];
    if (
      fromFragment &&
      types.includes(fromFragment) &&
      (base === 'catalogue-event' || base === 'interaction-event' || base === 'event')
    ) {
      spec = { kind: 'event', ref: `events.schema.json#/$defs/${fromFragment}` };
    } else if (fragment === undefined || fragment === '' || fragment === '/') {
      if (base === 'schema' || base === 'wire') spec = { kind: 'wire' };
      else if (base === 'registration') spec = { kind: 'registration' };
      else if (base === 'event') spec = { kind: 'event', ref: 'events.schema.json#/$defs/event' };
      else if (MESSAGE_ROOTS[base])
        spec = { kind: 'schema', ref: `messages.schema.json#/$defs/${MESSAGE_ROOTS[base]}` };
      else {
        const type = types.find((t) => t.replace(/\./g, '-') === base);
        if (type) spec = { kind: 'event', ref: `events.schema.json#/$defs/${type}` };
      }
    }
  }
  if (!spec) throw new Error(`unknown AHP validation root ${JSON.stringify(root)}`);
  rootCache.set(root, spec);
  return spec;
}

/** Validate `value` against one of our schema `$ref`s and map the errors (pointers prefixed with `base`). */
function runSchema(ref: string, value: unknown, base = ''): SchemaStageFinding[] {
  const reg = ahpSchemas();
  if (reg.check(ref)(value)) return [];
  const v = reg.validator(ref);
  if (v(value)) return [];
  const mapped = mapAjvErrors(v.errors, value, base).map((f) => ({
    rule: ruleOf(f.ruleId),
    pointer: f.pointer,
    message: f.message,
  }));
  return mapped.length ? mapped : [found('ahp/wire-root', base, 'The value does not match the expected AHP shape.')];
}

/**
 * The wire root: the verdict is the `oneOf` of the six message shapes; when it fails, the
 * shape the message is meant to be is chosen from `method` / `result` / `error` and its errors
 * are reported.
 */
function validateWire(value: unknown): SchemaStageFinding[] {
  const reg = ahpSchemas();
  if (reg.check('wire.schema.json')(value)) return [];
  if (Array.isArray(value))
    return [
      found(
        'ahp/wire-root',
        '',
        'An AHP wire message is a single JSON-RPC object; batches are not used (base/versioning.md §JSON-RPC).',
      ),
    ];
  if (!isObj(value))
    return [found('ahp/wire-root', '', `An AHP wire message is a JSON-RPC object, found ${describeValue(value)}.`)];
  let ref: string | undefined;
  let methodFinding: SchemaStageFinding | undefined;
  if ('method' in value) {
    const m = value.method;
    if (m === 'hooks/intercept') ref = 'interceptRequest';
    else if (m === 'hooks/observe') ref = 'observeNotification';
    else if (m === 'hooks/capabilities') ref = 'capabilitiesRequest';
    else {
      methodFinding = found(
        'ahp/method',
        '/method',
        `\`method\` must be "hooks/intercept", "hooks/observe" or "hooks/capabilities", found ${describeValue(m)}.`,
      );
      ref = 'jsonRpcMessage';
    }
  } else if ('error' in value) ref = 'errorResponse';
  else if ('result' in value) {
    const r = value.result;
    ref = isObj(r) && 'manifest' in r ? 'capabilitiesResponse' : 'interceptResponse';
  } else {
    return [
      found(
        'ahp/jsonrpc',
        '',
        'A wire message is a request or notification (with `method`) or a response (with `result` or `error`); this object has none of them.',
      ),
    ];
  }
  let out = runSchema(`messages.schema.json#/$defs/${ref}`, value);
  // an unknown method is the finding; the generic shape mismatch of jsonRpcMessage adds nothing
  if (methodFinding) out = [methodFinding, ...out.filter((f) => f.rule !== AHP_SCHEMA_RULES['ahp/wire-root'])];
  return out.length ? out : [found('ahp/wire-root', '', 'The message matches more than one AHP wire message shape.')];
}

/** Drop repeats of the same rule, pointer and sentence (two roots may report the same problem). */
function dedupe(findings: SchemaStageFinding[]): SchemaStageFinding[] {
  if (findings.length < 2) return findings;
  const seen = new Set<string>();
  return findings.filter((f) => {
    const k = `${f.rule.id}\u0000${f.pointer}\u0000${f.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Classify a parsed value by its JSON-RPC shape (AHP base/versioning.md §JSON-RPC). */
function messageKind(v: Obj, binding: AhpBinding): AhpMessageKind {
  if (binding === 'registration') return 'registration';
  const hasId = Object.hasOwn(v, 'id');
  if (typeof v.method === 'string') {
    if (v.method === 'hooks/intercept' && hasId) return 'intercept-request';
    if (v.method === 'hooks/observe' && !hasId) return 'observe-notification';
    if (v.method === 'hooks/capabilities' && hasId) return 'capabilities-request';
    return 'unknown';
  }
  if (Object.hasOwn(v, 'error')) return 'error-response';
  if (Object.hasOwn(v, 'result')) return 'response';
  return 'unknown';
}

function isUnder(pointer: string, prefix: string): boolean {
  return pointer === prefix || pointer.startsWith(prefix + '/');
}

/**
 * Run the stage on `ev` against `root` and fill it in as an {@link AhpMessage} (kind, event,
 * event pointer, elicitation body, `wireValid`); returns the stage's findings (not reported:
 * see {@link reportSchemaFindings}). `ev.value` may be any JSON value when the caller
 * validates a bare value (the manifest); the pipeline only hands objects.
 * @throws Error when `opts.eventSchema` does not name an event root, or a schema cannot be loaded.
 */
export function schemaStage(
  ev: ParsedEvent,
  root: RootSpec,
  opts: { eventSchema?: RootSpec; maxDepth?: number } = {},
): SchemaStageFinding[] {
  const value: unknown = ev.value;
  const msg = ev as AhpMessage;
  let findings: SchemaStageFinding[];
  switch (root.kind) {
    case 'wire':
      findings = validateWire(value);
      break;
    case 'registration':
      findings = runSchema('registration.schema.json', value);
      break;
    case 'schema':
    case 'event':
      findings = runSchema(root.ref, value);
      break;
  }
  const v: Obj = isObj(value) ? value : {};
  const params = isObj(v.params) ? v.params : undefined;
  if (opts.eventSchema && root.kind !== 'registration') {
    const es = opts.eventSchema;
    if (es.kind !== 'event') throw new Error('eventSchema does not name an event schema');
    const event = params ? params.event : undefined;
    findings.push(
      ...(event === undefined
        ? [found('ahp/method-params', '/params', '`event` is required here.')]
        : runSchema(es.ref, event, '/params/event')),
    );
  }
  findings = dedupe(findings);
  msg.kind = root.kind === 'registration' ? 'registration' : root.kind === 'event' ? 'event' : messageKind(v, 'stdio');
  msg.event =
    root.kind === 'event'
      ? isObj(value)
        ? value
        : undefined
      : params && isObj(params.event)
        ? params.event
        : undefined;
  msg.eventPointer = undefined;
  msg.elicitation = undefined;
  if (root.kind === 'event') {
    if (msg.event) msg.eventPointer = '';
  } else if (
    root.kind !== 'registration' &&
    msg.event &&
    (v.method === 'hooks/intercept' || v.method === 'hooks/observe')
  ) {
    msg.eventPointer = '/params/event';
  }
  if (msg.eventPointer !== undefined) {
    // the binding checks apply only to an elicitation payload that passed schema validation
    const at = `${msg.eventPointer}/elicitation`;
    msg.elicitation = parseElicitationBody(
      msg.event!,
      msg.eventPointer,
      !findings.some((f) => isUnder(f.pointer, at)),
      opts.maxDepth,
    );
  }
  msg.wireValid = !findings.some((f) => f.rule.wire) && ev.duplicates.length === 0;
  return findings;
}

/**
 * Report the stage's findings at `ev` through `sink`, each stamped with its rule's id,
 * severity and citation; findings of rules outside `selection` are not reported.
 */
export function reportSchemaFindings(
  findings: readonly SchemaStageFinding[],
  ev: ParsedEvent,
  sink: FindingSink,
  selection: RuleSelection,
): void {
  if (findings.length === 0) return;
  // an AEP event fed to `ahp` by mistake: say so once per line, on the JSON-RPC finding
  const v: unknown = ev.value;
  const looksAep = isObj(v) && typeof v.aep === 'string' && !Object.hasOwn(v, 'jsonrpc');
  for (const f of findings) {
    if (!isSelected(selection, f.rule.id)) continue;
    const message =
      looksAep && f.rule === AHP_SCHEMA_RULES['ahp/jsonrpc']
        ? `${f.message} (This line looks like an AEP event: check it with \`aep validate\`.)`
        : f.message;
    sink(makeFinding(f.rule, { pointer: f.pointer, message }, ev));
  }
}
