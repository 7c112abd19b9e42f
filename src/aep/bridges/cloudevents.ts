/**
 * The CloudEvents bridge (AEP-0005 §1-§2: CloudEvents 1.0, JSON, structured mode) and the checks of `--from
 * cloudevents`.
 */
import { childPointer, escapeToken } from '../../core/pointer.ts';
import { numberLiteralAt, parseJsonText, type BigIntegerLiteral } from '../../core/json.ts';
import { CE_RULES as R } from './rules.ts';
import { isObj } from '../../core/value.ts';
import type { MessageArgs } from '../../core/message.ts';
import { notCeString } from './numbers.ts';
import { sameFault } from './ce-same-fault.ts';
import { explainDateTime, isAbsoluteUri, isDateTime } from '../../core/schema/formats.ts';
import { assertAepEvent } from './hint.ts';
import {
  AEP_ENVELOPE_ORDER,
  AEP_TYPE_ROOT,
  isAepCoreAttribute,
  isAepExtensionName,
  kindOf,
  type BridgeIssue,
  type DecodedEvent,
  type DecodeResult,
} from './types.ts';
import { base64Fault } from './ce-base64.ts';

/** AEP attribute -> CE attribute (AEP-0005 §1 B4/B5 table), in the forward output's order. */
export const CE_ATTRIBUTE_TABLE: Readonly<Record<string, string>> = {
  aep: 'aepversion',
  agent: 'aepagentid',
  session: 'aepsessionid',
  run: 'aeprunid',
  step: 'aepstep',
  seq: 'aepsequence',
  epoch: 'aepepoch',
  cause: 'aepcausationid',
  severity: 'aepseverity',
  capture: 'aepcapture',
  traceparent: 'traceparent',
};

/** CE attribute -> AEP attribute (the inverse of {@link CE_ATTRIBUTE_TABLE}). */
export const AEP_OF_CE: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CE_ATTRIBUTE_TABLE).map(([a, c]) => [c, a]),
);

/** The B4 attributes AEP types as integers (seq, epoch): CloudEvents Integers. */
const CE_INTEGER_ATTRIBUTES = new Set(['aepsequence', 'aepepoch']);

/**
 * The Integer a string holds in the CloudEvents canonical string encoding (CloudEvents 1.0 §3.1.1 Type System: "Integer
 * component of the JSON Number per RFC 7159, Section 6 optionally prefixed with a minus sign", within the signed 32-bit
 * range), or `undefined`. Binary-mode headers carry every attribute so; a hop back to JSON that lost the type keeps it.
 */
export function ceIntegerOfString(v: unknown): number | undefined {
  if (typeof v !== 'string' || !/^-?(?:0|[1-9]\d{0,9})$/.test(v)) return undefined;
  const n = Number(v);
  return CE_INT32(n) ? n : undefined;
}

/** The B2 pass-through attributes (verbatim both ways). */
const PASS = ['id', 'source', 'subject', 'time'] as const;

/** CE names the inverse never turns into AEP attributes. */
const B1_CONSTANTS = new Set(['specversion', 'datacontenttype']);

/**
 * AEP-0005 §1: the CloudEvents form of one AEP event (B1-B5); absent optional attributes produce none. Pure.
 * @throws TypeError for bridge output or an AHP message (`aep/bridge-input`): no AEP event to map.
 */
export function toCloudEvent(event: Readonly<Record<string, unknown>>): Record<string, unknown> {
  assertAepEvent(event);
  const ce: Record<string, unknown> = { specversion: '1.0' };
  for (const k of ['id', 'source'] as const) if (event[k] !== undefined) ce[k] = event[k];
  if (typeof event.type === 'string') ce.type = AEP_TYPE_ROOT + event.type;
  for (const k of ['subject', 'time'] as const) if (event[k] !== undefined) ce[k] = event[k];
  if (event.data !== undefined) ce.datacontenttype = 'application/json';
  for (const [a, c] of Object.entries(CE_ATTRIBUTE_TABLE)) if (event[a] !== undefined) ce[c] = event[a];
  for (const [k, v] of Object.entries(event)) if (!isAepCoreAttribute(k) && v !== undefined) ce[k] = v;
  if (event.data !== undefined) ce.data = event.data;
  return ce;
}

/** CE names the forward mapping writes or the inverse reads as something else than an extension attribute. */
const CE_TAKEN = new Set([...Object.values(CE_ATTRIBUTE_TABLE), 'specversion', 'datacontenttype', 'dataschema']);

const CE_INT32 = (v: number) => Number.isInteger(v) && v >= -2147483648 && v <= 2147483647;

/**
 * Why `event` has no valid CloudEvents form (AEP-0005 §5 item 2: the output "MUST validate as CloudEvents 1.0 JSON
 * format"), or `undefined`: an attribute integer outside the signed 32-bit CloudEvents Integer (a `seq` at or above
 * 2^31), a number that is not an integer, a string that is not a CloudEvents String (control characters, noncharacters,
 * unpaired surrogates). `data` is a JSON value and carries any number as written.
 */
export function ceRefusal(event: Readonly<Record<string, unknown>>): { pointer: string; reason: string } | undefined {
  // AEP-0001 §5.4: "Core attributes are never reinterpreted by extensions"; an extension under a name the CE form gives
  // a core attribute or a B1 constant would overwrite it there, or be read back as it (§2 rule 1: the original event)
  const taken = Object.keys(event).find((k) => CE_TAKEN.has(k) && !isAepCoreAttribute(k));
  if (taken !== undefined)
    return {
      pointer: '/' + taken,
      reason: `the extension attribute ${taken} has the name of a CloudEvents attribute the mapping writes (${AEP_OF_CE[taken] ? `B4, from ${AEP_OF_CE[taken]}` : 'a B1 constant or a CloudEvents core attribute'}), so its CloudEvents form would not map back to this event (AEP-0005 §2 rule 1)`,
    };
  for (const [k, v] of Object.entries(event)) {
    if (k === 'data' || v === undefined || v === null) continue;
    const name = k === 'type' ? 'type' : (CE_ATTRIBUTE_TABLE[k] ?? k);
    const pointer = '/' + escapeToken(k);
    if (typeof v === 'number' && !CE_INT32(v))
      return {
        pointer,
        reason: Number.isInteger(v)
          ? `${k} is an integer outside the signed 32-bit range of the CloudEvents Integer type, so ${name} cannot carry it`
          : `${k} is a number that is not an integer, which no CloudEvents attribute type holds`,
      };
    if (typeof v === 'string' && notCeString(v))
      return {
        pointer,
        reason: `${k} holds a character the CloudEvents String type disallows (a control character, a noncharacter or an unpaired surrogate), so ${name} cannot carry it`,
      };
  }
  return undefined;
}

/** The outcome of {@link fromCloudEvent}. */
export interface FromCloudEventResult {
  /** The AEP event, or `undefined` for a foreign CE type (AEP-0005 §2 rule 3). */
  event: Record<string, unknown> | undefined;
  /** CE attribute names that were not carried into the event (illegal names, dataschema, data_base64). */
  dropped: string[];
}

// RFC 2045 §5.1 / RFC 2046: type "/" subtype, then parameters
const MEDIA_TYPE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\/([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(;.*)?$/;

/** True when `dct` declares JSON-formatted content (CE JSON format §3.1.1: subtype `json` or `*+json`, parameters aside). */
export function declaresJson(dct: unknown): boolean {
  const m = typeof dct === 'string' ? MEDIA_TYPE.exec(dct) : null;
  const sub = m ? m[2]!.toLowerCase() : '';
  return m !== null && (sub === 'json' || sub.endsWith('+json'));
}

/** The JSON a `data_base64` holds under a JSON datacontenttype (CE JSON format §3.1.2), strict base64, else `undefined`. */
export function dataOfBase64(
  ce: Readonly<Record<string, unknown>>,
): { value: unknown; bigIntegers: BigIntegerLiteral[] } | undefined {
  const b = ce.data_base64;
  if (typeof b !== 'string' || !declaresJson(ce.datacontenttype)) return undefined;
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b)) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Buffer.from(b, 'base64'));
  } catch {
    return undefined;
  }
  const r = parseJsonText(text);
  return r.ok && r.duplicates.length === 0 && r.duplicatesOmitted === 0
    ? { value: r.value, bigIntegers: r.bigIntegers }
    : undefined;
}

/** AEP-0005 §2: the AEP event of a CloudEvent; legal unknown extensions kept (rule 2), `null` unset (CE JSON §2.4). */
export function fromCloudEvent(ce: Readonly<Record<string, unknown>>): FromCloudEventResult {
  const dropped: string[] = [];
  if (!isObj(ce) || typeof ce.type !== 'string' || !ce.type.startsWith(AEP_TYPE_ROOT))
    return { event: undefined, dropped };
  const core: Record<string, unknown> = {};
  const b64 = ce.data === undefined || ce.data === null ? dataOfBase64(ce) : undefined;
  if (b64) core.data = b64.value;
  const ext: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(ce)) {
    if (v === null || v === undefined || B1_CONSTANTS.has(k)) continue;
    if (k === 'type') core.type = (v as string).slice(AEP_TYPE_ROOT.length);
    else if (k === 'data') core.data = v;
    else if ((PASS as readonly string[]).includes(k)) core[k] = v;
    // the canonical string of an Integer (§3.1.1 Type System: implementations "MUST likewise be able to convert from
    // and to the canonical string-encoding to the corresponding data type"): the Integer it encodes
    else if (AEP_OF_CE[k] !== undefined)
      core[AEP_OF_CE[k]] = CE_INTEGER_ATTRIBUTES.has(k) ? (ceIntegerOfString(v) ?? v) : v;
    else if (k === 'data_base64' && b64) continue;
    else if (k === 'dataschema' || k === 'data_base64') dropped.push(k);
    else if (isAepExtensionName(k)) ext[k] = v;
    else dropped.push(k);
  }
  const event: Record<string, unknown> = {};
  // the AEP envelope order, so the round trip of an event in that order is byte-identical
  for (const k of AEP_ENVELOPE_ORDER) if (k in core) event[k] = core[k];
  Object.assign(event, ext);
  if ('data' in core) event.data = core.data;
  return { event, dropped };
}

/** The CE pointer (under `base`) of a pointer in the AEP event that `ce` maps to. */
export function cePointerOf(base: string, aepPointer: string): string {
  if (aepPointer === '') return base;
  const cut = aepPointer.indexOf('/', 1);
  const head = cut === -1 ? aepPointer.slice(1) : aepPointer.slice(1, cut);
  const rest = cut === -1 ? '' : aepPointer.slice(cut);
  const name = CE_ATTRIBUTE_TABLE[head] ?? head;
  return base + '/' + escapeToken(name) + rest;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
/** Attributes that point into the B2/B5 set when written under the `aep` prefix. */
const PREFIXED = new Set(['aepid', 'aepsource', 'aepsubject', 'aeptime', 'aeptype', 'aepdata', 'aeptraceparent']);

/** Options of {@link decodeCloudEvents}. */
export interface DecodeCloudEventsOptions {
  /** Integers beyond 2^53 in the input, with their exact text (pointers into the input value). */
  bigIntegers?: readonly BigIntegerLiteral[];
  /** The JSON text the value was parsed from, to read how an attribute number is written (JSON format §2.2). */
  text?: string;
}

/** Check one `--from cloudevents` value (an object or a batch array) and map each in-scope CE back to AEP. */
export function decodeCloudEvents(value: unknown, opts: DecodeCloudEventsOptions = {}): DecodeResult {
  const issues: BridgeIssue[] = [];
  const events: DecodedEvent[] = [];
  const items: Array<[unknown, string]> = Array.isArray(value) ? value.map((v, i) => [v, '/' + i]) : [[value, '']];
  for (const [item, base] of items) {
    if (!isObj(item)) {
      issues.push({
        ruleId: R.notObject.id,
        pointer: base,
        messageId: Array.isArray(value) ? 'batch' : 'input',
        args: { kind: kindOf(item) },
      });
      continue;
    }
    const told = new Map<string, Set<string>>();
    const d = checkOne(item, base, issues, told, literalOf(opts.text));
    if (!d) continue;
    // a payload read from data_base64 (CE JSON format §3.1.2): its findings point at data_base64
    const b64 = item.data === undefined ? dataOfBase64(item) : undefined;
    const big = (opts.bigIntegers ?? [])
      .filter((b) => b.pointer.startsWith(base + '/'))
      .flatMap((b) => {
        const rest = b.pointer.slice(base.length + 1);
        const cut = rest.indexOf('/');
        const head = cut === -1 ? rest : rest.slice(0, cut);
        const aep = head === 'data' ? 'data' : (AEP_OF_CE[head] ?? (isAepExtensionName(head) ? head : undefined));
        return aep === undefined ? [] : [{ ...b, pointer: '/' + aep + (cut === -1 ? '' : rest.slice(cut)) }];
      });
    if (b64) big.push(...b64.bigIntegers.map((b) => ({ ...b, pointer: '/data' + b.pointer })));
    events.push({
      event: d,
      base,
      pointerOf: (p) =>
        b64 && (p === '/data' || p.startsWith('/data/')) ? childPointer(base, 'data_base64') : cePointerOf(base, p),
      ...(big.length ? { bigIntegers: big } : {}),
      ...(told.size ? { told } : {}),
    });
  }
  return { events, issues };
}

// a number written with a fraction or an exponent somewhere in the text: only then are attribute literals read
const NON_INTEGER_LITERAL = /[:,[]\s*-?\d+(?:\.\d|[eE])/;

/** How the number at a pointer of `text` is written, when some number there has a fraction or an exponent. */
function literalOf(text: string | undefined): ((pointer: string) => string | undefined) | undefined {
  return text !== undefined && NON_INTEGER_LITERAL.test(text) ? (p) => numberLiteralAt(text, p) : undefined;
}

/**
 * The checks of one CE object; its AEP event when it is in the bridge's scope. `told` gets, at the event pointer of
 * each B2 member (id, source, subject, time) given a finding here, the AEP rules that would report the same fault:
 * B2 copies the value verbatim, so they would judge it again. An AEP rule on another fault of it still reports.
 */
function checkOne(
  ce: Record<string, unknown>,
  base: string,
  issues: BridgeIssue[],
  told: Map<string, Set<string>>,
  literal?: (pointer: string) => string | undefined,
): Record<string, unknown> | undefined {
  const at = (name: string) => childPointer(base, name);
  const issue = (rule: { id: string }, name: string, messageId: string, args: MessageArgs = {}) => {
    if ((PASS as readonly string[]).includes(name)) told.set('/' + name, sameFault(name, messageId, ce[name]));
    issues.push({ ruleId: rule.id, pointer: name === '' ? base : at(name), messageId, args });
  };
  // a member named "" is the attribute at pointer base + "/", not the event
  const named = (rule: { id: string }, name: string, messageId: string, args: MessageArgs) =>
    issues.push({ ruleId: rule.id, pointer: at(name), messageId, args });
  const missing = ['id', 'source', 'specversion', 'type'].filter((k) => ce[k] === undefined || ce[k] === null);
  if (missing.length) issue(R.required, '', 'missing', { count: missing.length, missing: missing.join(', ') });
  const badVersion = ce.specversion !== undefined && ce.specversion !== null && ce.specversion !== '1.0';
  if (badVersion)
    issue(
      R.specversion,
      'specversion',
      typeof ce.specversion === 'string' ? 'string' : 'kind',
      typeof ce.specversion === 'string' ? { value: ce.specversion.slice(0, 10) } : { kind: kindOf(ce.specversion) },
    );
  for (const [k, v] of Object.entries(ce)) {
    if (k === 'data' || k === 'data_base64' || v === null) continue;
    if (!/^[a-z0-9]+$/.test(k)) {
      named(R.attributeName, k, 'name', { name: k.slice(0, 40) });
      continue;
    }
    // CloudEvents 1.0 §3.1.1 String: no control characters, noncharacters or unpaired surrogates
    if (typeof v === 'string' && notCeString(v)) {
      issue(R.attributeType, k, 'string-chars', { name: k });
      continue;
    }
    // JSON format §3: "the member's type and value being mapped using the type system mapping", an Integer a JSON
    // number; the digits are still read as the Integer (fromCloudEvent)
    if (CE_INTEGER_ATTRIBUTES.has(k) && ceIntegerOfString(v) !== undefined) {
      issue(R.attributeType, k, 'int-string', { name: k });
      continue;
    }
    if (k === 'id' || k === 'source' || k === 'type' || k === 'subject' || k === 'specversion') {
      if (typeof v !== 'string' || (v === '' && k !== 'specversion'))
        issue(R.attributeType, k, 'string', { name: k, kind: typeof v === 'string' ? 'an empty string' : kindOf(v) });
    } else if (k === 'datacontenttype' && typeof v === 'string' && v !== '' && !MEDIA_TYPE.test(v)) {
      issue(R.attributeType, k, 'media-type', { length: v.length });
    } else if (k === 'time') {
      // CloudEvents 1.0 Timestamp: RFC 3339, read by the same check as AEP time (real dates, §5.7 leap seconds)
      if (typeof v !== 'string') issue(R.attributeType, k, 'time-kind', { kind: kindOf(v) });
      else if (!isDateTime(v)) issue(R.attributeType, k, 'time-string', { why: explainDateTime(v) ?? '' });
    } else if (k === 'datacontenttype' || k === 'dataschema') {
      if (typeof v !== 'string' || v === '')
        issue(R.attributeType, k, 'string', { name: k, kind: typeof v === 'string' ? 'an empty string' : kindOf(v) });
      // §3.1.1: dataschema is of type URI, "Absolute URI as defined in RFC 3986 Section 4.3"
      else if (k === 'dataschema' && !isAbsoluteUri(v)) issue(R.attributeType, k, 'uri', { name: k, length: v.length });
    } else if (typeof v === 'number') {
      if (!Number.isInteger(v) || v < INT32_MIN || v > INT32_MAX)
        issue(R.attributeType, k, Number.isInteger(v) ? 'int-range' : 'int-fraction', { name: k });
      // JSON format §2.2: "only the integer component optionally prefixed with a minus sign is permitted"
      else if (literal && /[.eE]/.test(literal(at(k)) ?? '')) issue(R.attributeType, k, 'int-literal', { name: k });
    } else if (typeof v !== 'string' && typeof v !== 'boolean')
      issue(R.attributeType, k, 'extension-kind', { name: k, kind: kindOf(v) });
  }
  const dct = ce.datacontenttype;
  const b64 = ce.data === undefined ? dataOfBase64(ce) : undefined;
  if (ce.data_base64 !== undefined && ce.data_base64 !== null && !b64) {
    const b = ce.data_base64;
    if (ce.data !== undefined) issue(R.data, 'data_base64', 'both');
    else if (!declaresJson(dct)) issue(R.data, 'data_base64', 'base64');
    else if (typeof b !== 'string') issue(R.data, 'data_base64', 'base64-not-json', { reason: `it is ${kindOf(b)}` });
    else issue(R.data, 'data_base64', 'base64-not-json', { reason: base64Fault(b) ?? 'it gives no JSON value' });
  }
  const hasData = ce.data !== undefined || b64 !== undefined;
  // read as a media type (RFC 2046: type and subtype case-insensitive, parameters allowed); absent means JSON in the
  // CloudEvents JSON format (§3.1.1); only what differs from the B1 constant is reported, as a warning
  const media = typeof dct === 'string' ? MEDIA_TYPE.exec(dct) : null;
  const json = declaresJson(dct);
  if (hasData && typeof dct === 'string' && media && !json) issue(R.data, 'datacontenttype', 'not-json');
  else if (hasData && dct !== 'application/json' && (media || dct === undefined || dct === null))
    issue(
      R.datacontenttype,
      dct === undefined || dct === null ? '' : 'datacontenttype',
      dct === undefined || dct === null ? 'absent' : 'other',
    );
  else if (!hasData && dct !== undefined && dct !== null && ce.data_base64 === undefined)
    issue(R.datacontenttype, 'datacontenttype', 'without-data');
  if (typeof ce.type === 'string' && !ce.type.startsWith(AEP_TYPE_ROOT)) {
    issue(R.foreignType, 'type', 'foreign');
    return undefined;
  }
  // not a CloudEvents 1.0 event: nothing to map back
  if (typeof ce.type !== 'string' || missing.length || badVersion) return undefined;
  for (const k of Object.keys(ce)) {
    if (ce[k] === null || !/^[a-z0-9]+$/.test(k)) continue;
    if (PREFIXED.has(k)) issue(R.prefixed, k, 'prefixed', { name: k, base: k.slice(3) });
    else if (k === 'dataschema') issue(R.unmapped, k, 'dataschema');
    else if (
      k !== 'data' &&
      !B1_CONSTANTS.has(k) &&
      !(PASS as readonly string[]).includes(k) &&
      k !== 'type' &&
      AEP_OF_CE[k] === undefined &&
      !isAepExtensionName(k)
    ) {
      issue(
        R.extensionDropped,
        k,
        isAepCoreAttribute(k) ? 'core' : 'long',
        isAepCoreAttribute(k)
          ? { name: k, written: CE_ATTRIBUTE_TABLE[k] ?? 'a B2 attribute' }
          : { name: k.slice(0, 40) },
      );
    }
  }
  return fromCloudEvent(ce).event;
}
