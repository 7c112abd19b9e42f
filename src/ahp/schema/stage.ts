/**
 * The AHP message-schema stage, first on every message: validates against its root, attributes findings by `x-rule`,
 * and
 * fills AhpMessage (`wireValid`: no `wire` rule finding, ids trustworthy; the event and elicitation body, parsed once).
 */
import { describeValue, type FindingSink } from '../../core/finding.ts';
import { isSelected, type RuleSelection } from '../../core/engine.ts';
import type { MessageArgs } from '../../core/message.ts';
import { makeFinding, type ParsedEvent, ruleMessage } from '../../core/rule.ts';
import { nearestWord } from '../../core/nearest.ts';
import { isFullDate } from '../../core/schema/formats.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { extraDenies } from './deny-count.ts';
import { parseElicitationBody } from './elicitation.ts';
import { mapAjvErrors } from './issues.ts';
import type { AhpBinding, AhpMessage, AhpMessageKind } from '../message.ts';
import { looksAep } from '../aep-input.ts';
import { bareParts } from './bare-parts.ts';
import { AHP_SCHEMA_RULES, type AhpSchemaRuleId, type SchemaRule, type SchemaStageFinding } from './rules.ts';

export type { SchemaStageFinding } from './rules.ts';
import { ahpEventTypes, ahpSchemas } from './schemas.ts';
import { wireVerdict, wireVerdictGeneral } from './wire-verdict.ts';

function ruleOf(id: string): SchemaRule {
  const r = (AHP_SCHEMA_RULES as Record<string, SchemaRule>)[id];
  if (!r) throw new Error(`the AHP schemas name rule ${id}, which is not a rule of the schema stage`);
  return r;
}

const found = (id: AhpSchemaRuleId, pointer: string, messageId: string, args?: MessageArgs): SchemaStageFinding => ({
  rule: AHP_SCHEMA_RULES[id],
  pointer,
  messageId,
  ...(args ? { args } : {}),
});

/** `'message'` (wire root), `'registration'`, or a manifest `schema` path mapped to our root by file name. */
export type AhpRoot = 'message' | 'registration' | string;

/** Options of {@link validateAhpMessage} (src/run/ahp-message.ts) and of the stage. */
export interface ValidateAhpOptions {
  /** The root to validate against; default `'message'`. */
  root?: AhpRoot;
  /** Also validate `params.event` against this event root (an {@link AhpRoot} naming an event). */
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
/** The intercept response root (the wire root's success branch): both judge several deny effects. */
const INTERCEPT_RESPONSE = `messages.schema.json#/$defs/${MESSAGE_ROOTS['intercept-response']}`;

/** One of our schema roots for `root`. @throws Error when we have no equivalent. */
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
    messageId: f.messageId,
    args: f.args,
  }));
  return mapped.length ? mapped : [found('ahp/wire-root', base, 'noShape')];
}

/** No finding (shared: the stage never adds to a findings list in place). */
const NONE: SchemaStageFinding[] = [];

/** The wire root: the `oneOf` of the six message shapes; `parsed`: `value` is JSON.parse's (fast pass). */
function validateWire(value: unknown, parsed: boolean): SchemaStageFinding[] {
  if (parsed ? wireVerdict(value) : wireVerdictGeneral(value)) return NONE;
  if (Array.isArray(value)) return [found('ahp/wire-root', '', 'batch')];
  if (!isObj(value)) return [found('ahp/wire-root', '', 'notObject', { found: describeValue(value) })];
  let ref: string | undefined;
  let methodFinding: SchemaStageFinding | undefined;
  if ('method' in value) {
    const m = value.method;
    if (m === 'hooks/intercept') ref = 'interceptRequest';
    else if (m === 'hooks/observe') ref = 'observeNotification';
    else if (m === 'hooks/capabilities') ref = 'capabilitiesRequest';
    else {
      methodFinding = found('ahp/method', '/method', 'unknown', { found: describeValue(m) });
      ref = 'jsonRpcMessage';
    }
  } else if ('error' in value) ref = 'errorResponse';
  else if ('result' in value) {
    const r = value.result;
    ref = isObj(r) && 'manifest' in r ? 'capabilitiesResponse' : 'interceptResponse';
  } else {
    return [found('ahp/jsonrpc', '', 'noMember')];
  }
  let out = runSchema(`messages.schema.json#/$defs/${ref}`, value);
  // an unknown method is the finding; the generic shape mismatch of jsonRpcMessage adds nothing
  if (methodFinding) out = [methodFinding, ...out.filter((f) => f.rule !== AHP_SCHEMA_RULES['ahp/wire-root'])];
  return out.length ? out : [found('ahp/wire-root', '', 'ambiguous')];
}

/** Drop repeats of the same rule, pointer and sentence (two roots may report the same problem). */
function dedupe(findings: SchemaStageFinding[]): SchemaStageFinding[] {
  if (findings.length < 2) return findings;
  const seen = new Set<string>();
  return findings.filter((f) => {
    // by the sentence, as reported (two templates may say the same: oneOf and anyOf with no shape matching); a wrong
    // type is one fact whichever root met it (an event that is no object is not an envelope, overlay and type error)
    const rule = f.messageId === 'type' ? '' : f.rule.id;
    const k = `${rule}\u0000${f.pointer}\u0000${ruleMessage(f.rule, f.messageId, f.args, '')}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Classify a parsed value by its JSON-RPC shape (AHP base/versioning.md §JSON-RPC). */
function messageKind(v: Obj, binding: AhpBinding): AhpMessageKind {
  if (binding === 'registration') return 'registration';
  const method = v.method;
  if (typeof method === 'string') {
    const hasId = Object.hasOwn(v, 'id');
    if (method === 'hooks/intercept' && hasId) return 'intercept-request';
    if (method === 'hooks/observe' && !hasId) return 'observe-notification';
    if (method === 'hooks/capabilities' && hasId) return 'capabilities-request';
    return 'unknown';
  }
  if (Object.hasOwn(v, 'error')) return 'error-response';
  if (Object.hasOwn(v, 'result')) return 'response';
  return 'unknown';
}

function isUnder(pointer: string, prefix: string): boolean {
  return pointer === prefix || pointer.startsWith(prefix + '/');
}

/** Run the stage on `ev` against `root`, fill it as an AhpMessage; its findings. @throws Error for a bad schema. */
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
      // a value handed in without text (validateAhpMessage) may have members JSON never makes (an accessor, a member
      // that is not enumerable)
      findings = validateWire(value, ev.text !== '');
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
  if (
    (root.kind === 'wire' || (root.kind === 'schema' && root.ref === INTERCEPT_RESPONSE)) &&
    isObj(v.result) &&
    Array.isArray(v.result.effects)
  )
    findings = [
      ...findings,
      ...extraDenies(v.result.effects).map((i) => found('ahp/effect', `/result/effects/${i}`, 'denyMultiple')),
    ];
  const params = isObj(v.params) ? v.params : undefined;
  if (opts.eventSchema && root.kind !== 'registration') {
    const es = opts.eventSchema;
    if (es.kind !== 'event') throw new Error('eventSchema does not name an event schema');
    const event = params ? params.event : undefined;
    findings = [
      ...findings,
      ...(event === undefined
        ? [found('ahp/method-params', '/params', 'eventRequired')]
        : runSchema(es.ref, event, '/params/event')),
    ];
  }
  findings = dedupe(findings);
  if (findings.length > 0) findings = bareParts(findings, value);
  if (root.kind === 'wire' && findings.length > 0) findings = offeredVersion(findings, v, params);
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
  const type = msg.event?.type;
  if (msg.eventPointer !== undefined && (type === 'user.elicitation.request' || type === 'user.elicitation.result')) {
    // the binding checks apply only to an elicitation payload that passed schema validation
    const at = `${msg.eventPointer}/elicitation`;
    msg.elicitation = parseElicitationBody(
      msg.event!,
      msg.eventPointer,
      findings.length === 0 || !findings.some((f) => isUnder(f.pointer, at)),
      opts.maxDepth,
    );
  }
  if (findings.length > 0 && msg.eventPointer !== undefined) findings = namedFindings(findings, msg, v);
  msg.wireValid = (findings.length === 0 || !findings.some((f) => f.rule.wire)) && ev.duplicates.length === 0;
  return findings;
}

/**
 * A snapshot identifier is its release date in `YYYY-MM-DD` form (base/versioning.md §Versioning), so only a real
 * calendar day (RFC 3339 full-date) is one; whether that snapshot was published is not knowable here.
 * A request's other snapshot identifier is the harness offering it (base/versioning.md: a backend that does not support
 * the supplied version returns -32001), so its `ahp/protocol-version` finding becomes `ahp/protocol-version-offered`.
 */
function offeredVersion(findings: SchemaStageFinding[], v: Obj, params: Obj | undefined): SchemaStageFinding[] {
  const version = params?.protocolVersion;
  const request = (v.method === 'hooks/intercept' || v.method === 'hooks/capabilities') && Object.hasOwn(v, 'id');
  if (!request || typeof version !== 'string' || !isFullDate(version)) return findings;
  const rule = AHP_SCHEMA_RULES['ahp/protocol-version'];
  return findings.map((f) =>
    f.rule === rule && f.pointer === '/params/protocolVersion'
      ? found('ahp/protocol-version-offered', f.pointer, 'offered', { version })
      : f,
  );
}

/** The member a generic `required` finding names (not one whose name or requiring value its sentence could not quote). */
function requiredMember(f: SchemaStageFinding): string | undefined {
  const a = f.args;
  if (f.messageId !== 'required' && f.messageId !== 'required-const') return undefined;
  const member = a?.member;
  if (typeof member !== 'string' || member === '' || member.includes('`')) return undefined;
  if (f.messageId === 'required-const' && (String(a?.key).includes('`') || String(a?.value).includes('"')))
    return undefined;
  return member;
}

/** A type as messages show it: JSON-quoted when short and printable, else its length (never a long or odd text). */
function shownType(t: string): string {
  return t.length <= 64 && /^[\x20-\x7e]+$/.test(t) ? JSON.stringify(t) : `a ${[...t].length}-character type`;
}

/** Findings about the event worded with what they judge: the nearest catalogue type, the requiring type. */
function namedFindings(findings: SchemaStageFinding[], msg: AhpMessage, v: Obj): SchemaStageFinding[] {
  const at = msg.eventPointer!;
  const type = msg.event?.type;
  const types = ahpEventTypes();
  const known = typeof type === 'string' && types.includes(type);
  const carrier =
    v.method === 'hooks/intercept'
      ? ' carried by a hooks/intercept request'
      : v.method === 'hooks/observe'
        ? ' carried by a hooks/observe notification'
        : '';
  return findings.map((f) => {
    if (
      f.rule === AHP_SCHEMA_RULES['ahp/event-type'] &&
      f.pointer === `${at}/type` &&
      typeof type === 'string' &&
      !known
    )
      return { ...f, messageId: 'unknown', args: { type: shownType(type), nearest: nearestWord(type, types) ?? '' } };
    if (
      f.pointer === at &&
      (f.rule === AHP_SCHEMA_RULES['ahp/envelope'] || f.rule === AHP_SCHEMA_RULES['ahp/overlay'])
    ) {
      const member = requiredMember(f);
      if (member === undefined || (!known && f.rule === AHP_SCHEMA_RULES['ahp/overlay'])) return f;
      const kind = `${known ? `the ${type as string} event` : 'the event'}${carrier}`;
      const messageId = f.rule === AHP_SCHEMA_RULES['ahp/envelope'] ? 'requiredEvent' : 'requiredOverlay';
      return { ...f, messageId, args: { member, kind, carrier, type: known ? (type as string) : '' } };
    }
    return f;
  });
}

/** Report the stage's findings at `ev` through `sink`, each stamped with its rule's id, severity and citation. */
export function reportSchemaFindings(
  findings: readonly SchemaStageFinding[],
  ev: ParsedEvent,
  sink: FindingSink,
  selection: RuleSelection,
): void {
  if (findings.length === 0) return;
  // an AEP event the run did not set aside (a single message, a registration document): say so on the JSON-RPC finding
  const aep = looksAep(ev.value);
  for (const f of findings) {
    if (!isSelected(selection, f.rule.id)) continue;
    const messageId = aep && f.rule === AHP_SCHEMA_RULES['ahp/jsonrpc'] ? `${f.messageId}Aep` : f.messageId;
    sink(makeFinding(f.rule, { pointer: f.pointer, messageId, ...(f.args ? { args: f.args } : {}) }, ev));
  }
}
