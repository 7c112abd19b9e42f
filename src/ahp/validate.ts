/**
 * `ahp validate` message checks: one parsed JSON value in, issues with JSON Pointers out.
 *
 * Messages are validated through the AHP draft wire root (exactly one of intercept request,
 * intercept response, JSON-RPC error response, observe notification, capabilities request,
 * capabilities response; AHP base/versioning.md §JSON-RPC), events always as the envelope
 * composed with their overlay (AHP interaction-payloads.md: never an overlay alone), and
 * registration documents through their own root. Code checks add what JSON Schema cannot
 * express: intercept request id = `params.event.id`, the MCP elicitation body binding, backend
 * id uniqueness and literal secrets in registration.
 *
 * Framing (JSONL lines, CRLF, blank lines, duplicate keys in the outer line) belongs to the
 * reader; {@link validateStdioText} is a small helper for whole stdio captures.
 */
import { describeValue } from '../core/finding.ts';
import { parseJsonText } from '../core/json.ts';
import { checkElicitationEvent } from './elicitation.ts';
import { issue, mapAjvErrors, type AhpIssue } from './issues.ts';
import { checkRegistration } from './registration.ts';
import { AHP_MESSAGE_RULES, type AhpRuleInfo } from './rules.ts';
import { ahpEventTypes, ahpSchemas } from './schemas.ts';

export type { AhpIssue } from './issues.ts';
export { AHP_MESSAGE_RULES, type AhpRuleInfo };

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

/** Options of {@link validateAhpMessage}. */
export interface ValidateAhpOptions {
  /** The root to validate against; default `'message'`. */
  root?: AhpRoot;
  /**
   * Also validate `params.event` against this event root (an {@link AhpRoot} naming an event,
   * e.g. `"schema/draft/tool-before.schema.json"`); its issues point under `/params/event`.
   */
  eventSchema?: string;
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

type RootSpec = { kind: 'wire' } | { kind: 'registration' } | { kind: 'schema'; ref: string; messageLike: boolean } | { kind: 'event'; ref: string };

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
function resolveRoot(root: AhpRoot): RootSpec {
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
    if (fromFragment && types.includes(fromFragment) && (base === 'catalogue-event' || base === 'interaction-event' || base === 'event')) {
      spec = { kind: 'event', ref: `events.schema.json#/$defs/${fromFragment}` };
    } else if (fragment === undefined || fragment === '' || fragment === '/') {
      if (base === 'schema' || base === 'wire') spec = { kind: 'wire' };
      else if (base === 'registration') spec = { kind: 'registration' };
      else if (base === 'event') spec = { kind: 'event', ref: 'events.schema.json#/$defs/event' };
      else if (MESSAGE_ROOTS[base]) spec = { kind: 'schema', ref: `messages.schema.json#/$defs/${MESSAGE_ROOTS[base]}`, messageLike: true };
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
function runSchema(ref: string, value: unknown, base = ''): AhpIssue[] {
  const reg = ahpSchemas();
  if (reg.check(ref)(value)) return [];
  const v = reg.validator(ref);
  if (v(value)) return [];
  const mapped = mapAjvErrors(v.errors, value, base);
  return mapped.length ? mapped : [issue('ahp/wire-root', base, 'The value does not match the expected AHP shape.')];
}

/**
 * The wire root: the verdict is the `oneOf` of the six message shapes; when it fails, the
 * shape the message is meant to be is chosen from `method` / `result` / `error` and its errors
 * are reported.
 */
function validateWire(value: unknown): AhpIssue[] {
  const reg = ahpSchemas();
  if (reg.check('wire.schema.json')(value)) return [];
  if (Array.isArray(value)) return [issue('ahp/wire-root', '', 'An AHP wire message is a single JSON-RPC object; batches are not used (base/versioning.md §JSON-RPC).')];
  if (!isObj(value)) return [issue('ahp/wire-root', '', `An AHP wire message is a JSON-RPC object, found ${describeValue(value)}.`)];
  let ref: string | undefined;
  const extra: AhpIssue[] = [];
  if ('method' in value) {
    const m = value.method;
    if (m === 'hooks/intercept') ref = 'interceptRequest';
    else if (m === 'hooks/observe') ref = 'observeNotification';
    else if (m === 'hooks/capabilities') ref = 'capabilitiesRequest';
    else {
      extra.push(issue('ahp/method', '/method', `\`method\` must be "hooks/intercept", "hooks/observe" or "hooks/capabilities", found ${describeValue(m)}.`));
      ref = 'jsonRpcMessage';
    }
  } else if ('error' in value) ref = 'errorResponse';
  else if ('result' in value) {
    const r = value.result;
    ref = isObj(r) && 'manifest' in r ? 'capabilitiesResponse' : 'interceptResponse';
  } else {
    return [issue('ahp/jsonrpc', '', 'A wire message is a request or notification (with `method`) or a response (with `result` or `error`); this object has none of them.')];
  }
  const found = [...extra, ...runSchema(`messages.schema.json#/$defs/${ref}`, value).filter((i) => !(extra.length && i.ruleId === 'ahp/wire-root'))];
  return found.length ? found : [issue('ahp/wire-root', '', 'The message matches more than one AHP wire message shape.')];
}

/** The event a message carries and its pointer, for the code checks. */
function eventOf(value: unknown, spec: RootSpec): { event: unknown; pointer: string } | undefined {
  if (spec.kind === 'event') return { event: value, pointer: '' };
  if ((spec.kind === 'wire' || (spec.kind === 'schema' && spec.messageLike)) && isObj(value) && (value.method === 'hooks/intercept' || value.method === 'hooks/observe') && isObj(value.params) && isObj(value.params.event)) {
    return { event: value.params.event, pointer: '/params/event' };
  }
  return undefined;
}

function isUnder(pointer: string, prefix: string): boolean {
  return pointer === prefix || pointer.startsWith(prefix + '/');
}

/** Code checks of one event (after schema validation; `schemaIssues` gate the elicitation check). */
function eventChecks(event: unknown, pointer: string, schemaIssues: readonly AhpIssue[]): AhpIssue[] {
  if (!isObj(event)) return [];
  const out: AhpIssue[] = [];
  if ((event.type === 'user.elicitation.request' || event.type === 'user.elicitation.result') && !schemaIssues.some((i) => isUnder(i.pointer, `${pointer}/elicitation`))) {
    out.push(...checkElicitationEvent(event, pointer));
  }
  if (event.type === 'user.attention' && isObj(event.attention)) {
    for (const k of ['message', 'title'] as const) {
      if (isObj(event.attention[k])) {
        out.push(issue('ahp/attention-shape', `${pointer}/attention/${k}`, `Attention \`${k}\` is a single text part; the draft schema types it as a list of text parts (the prose calls it a singular text part), so receivers may expect a list.`));
      }
    }
  }
  return out;
}

function dedupe(issues: AhpIssue[]): AhpIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = `${i.ruleId}\u0000${i.pointer}\u0000${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Validate one parsed JSON value as an AHP draft message (default), a registration document or
 * the root named by `opts.root`, returning every issue found (an empty array means valid).
 * Issues with severity `error` make the value invalid; `warning`s do not.
 *
 * Shapes: see {@link AhpIssue}, {@link AhpRoot}. Spec: AHP base/versioning.md §JSON-RPC,
 * base/events.md, interaction-payloads.md (incl. §MCP elicitation binding), content-upload.md,
 * execution-payloads.md, capability-auth.md, base/registration.md.
 * Schemas are compiled once per process on first use.
 * @throws Error when `opts.root` / `opts.eventSchema` names an unknown root, or when a schema
 *   file cannot be loaded (an installation problem).
 */
export function validateAhpMessage(value: unknown, opts: ValidateAhpOptions = {}): AhpIssue[] {
  const spec = resolveRoot(opts.root ?? 'message');
  let issues: AhpIssue[];
  switch (spec.kind) {
    case 'wire':
      issues = validateWire(value);
      break;
    case 'registration':
      return dedupe([...runSchema('registration.schema.json', value), ...checkRegistration(value)]);
    case 'schema':
    case 'event':
      issues = runSchema(spec.ref, value);
      break;
  }
  if (opts.eventSchema !== undefined) {
    const es = resolveRoot(opts.eventSchema);
    if (es.kind !== 'event') throw new Error(`eventSchema ${JSON.stringify(opts.eventSchema)} does not name an event schema`);
    const ev = isObj(value) && isObj(value.params) ? value.params.event : undefined;
    issues.push(...(ev === undefined ? [issue('ahp/method-params', '/params', '`event` is required here.')] : runSchema(es.ref, ev, '/params/event')));
  }
  if (isObj(value) && value.method === 'hooks/intercept' && spec.kind !== 'event' && isObj(value.params) && isObj(value.params.event)) {
    const id = value.id;
    const eventId = value.params.event.id;
    if ((typeof id === 'string' || typeof id === 'number') && typeof eventId === 'string' && id !== eventId) {
      issues.push(issue('ahp/intercept-id-mismatch', '/id', `The JSON-RPC \`id\` of a hooks/intercept request must equal \`params.event.id\` (found ${describeValue(id)} and ${describeValue(eventId)}); a retry reuses both.`));
    }
  }
  const ev = eventOf(value, spec);
  if (ev) issues.push(...eventChecks(ev.event, ev.pointer, issues));
  return dedupe(issues);
}

/** An issue of {@link validateStdioText}: an {@link AhpIssue} plus its 1-based physical line. */
export interface AhpLineIssue extends AhpIssue {
  line: number;
}

/**
 * Validate a whole stdio capture (AHP base/transports/stdio.md §Framing, AHP-STDIO-001): one
 * complete JSON object per physical line, each terminated by a single LF; no CR, no blank
 * lines, no member name repeated in an object; then every line through
 * {@link validateAhpMessage} with `opts`. Empty text is reported (never a silent pass).
 * Never throws for any input text (only for an unknown `opts.root`).
 */
export function validateStdioText(text: string, opts: ValidateAhpOptions = {}): AhpLineIssue[] {
  const out: AhpLineIssue[] = [];
  const at = (line: number, i: AhpIssue): void => void out.push({ ...i, line });
  if (text.length === 0) {
    at(1, issue('ahp/stdio-framing', '', 'The stdio text is empty: it holds no message.'));
    return out;
  }
  const endsWithLf = text.endsWith('\n');
  const lines = text.split('\n');
  if (endsWithLf) lines.pop();
  lines.forEach((raw, idx) => {
    const line = idx + 1;
    let body = raw;
    if (body.includes('\r')) {
      at(line, issue('ahp/stdio-framing', '', 'The line contains a carriage return (CR); stdio messages are terminated by a single LF.'));
      body = body.replace(/\r/g, '');
    }
    if (body.trim() === '') {
      at(line, issue('ahp/stdio-framing', '', 'Blank line: every stdio line is one complete JSON-RPC object.'));
      return;
    }
    const parsed = parseJsonText(body);
    if (!parsed.ok) {
      const why = parsed.kind === 'invalid-json' ? `a JSON syntax error at character ${parsed.index + 1}` : 'nesting that is too deep';
      at(line, issue('ahp/stdio-framing', '', `The line is not one complete JSON value (${why}); a message must not span lines or be pretty-printed.`));
      return;
    }
    for (const d of parsed.duplicates) at(line, issue('ahp/duplicate-key', d.pointer, 'An object repeats this member name; duplicate member names make the message invalid.'));
    for (const i of validateAhpMessage(parsed.value, opts)) at(line, i);
  });
  if (!endsWithLf) at(lines.length, issue('ahp/stdio-framing', '', 'The last line is not terminated by a newline (LF).'));
  return out;
}

/** True when `issues` holds no `error` (warnings and infos do not invalidate). */
export function isAhpValid(issues: readonly AhpIssue[]): boolean {
  return !issues.some((i) => i.severity === 'error');
}
