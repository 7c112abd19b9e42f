/**
 * The AEP 0.1 checker: envelope -> type registry -> payload -> per-event rules -> stream
 * rules, for each parsed JSONL line. DESIGN.md §Data flow; AEP-0001 §5-§8, AEP-0002 §3-§5.
 */
import { ajvMessage, significantErrors } from '../core/ajv.ts';
import { exactIntegerOfLiteral, MAX_EXACT_EXPONENT, numberLiteralAt } from '../core/json.ts';
import type { FindingSink } from '../core/finding.ts';
import { framingFinding, JSONL_RULES } from '../core/jsonl.ts';
import type { ProtocolChecker, ProtocolDriver, RunStats } from '../core/pipeline.ts';
import { makeFinding, RuleRunner, type ParsedEvent, type RuleMeta } from '../core/rule.ts';
import type { RuleSelection } from '../core/engine.ts';
import type { AepEvent } from './event.ts';
import { envelopeValidator, KNOWN_AEP_TYPES, payloadValidator, registryEntry } from './payload.ts';
import { AEP_EVENT_RULES, AEP_SCHEMA_RULES } from './rules/index.ts';
import { classifyEnvelopeError, ENVELOPE_RULES } from './rules/envelope.ts';
import { AEP_STREAM_RULES, DEFAULT_AEP_STREAM_OPTIONS, type AepStreamOptions } from './stream/index.ts';
import type { AepCaptureLevel } from './schemas.ts';

/** Options of an AEP run. */
export interface AepCheckOptions {
  stream?: Partial<AepStreamOptions>;
  /** Run only these rules (framing and parse findings always appear); `undefined` runs all. */
  rules?: RuleSelection;
}

/** Every rule `aep validate` can report: framing, schema, per-event and stream rules. */
export function aepRules(): RuleMeta[] {
  return [...JSONL_RULES.map((r) => ({ ...r }) as RuleMeta), ...AEP_SCHEMA_RULES, ...AEP_EVENT_RULES, ...AEP_STREAM_RULES].map(({ id, severity, description, spec }) => ({ id, severity, description, spec }));
}

export { KNOWN_AEP_TYPES };

/**
 * Check one parsed event's envelope, type and payload. Reports to `sink`; returns the
 * {@link AepEvent} when the envelope is valid (so stream rules may see it), else `undefined`.
 */
export function checkAepEvent(ev: ParsedEvent, sink: FindingSink): AepEvent | undefined {
  const R = ENVELOPE_RULES;
  const v = ev.value;
  // duplicate member names: the value JSON.parse kept must not decide the verdict
  let envelopeDup = false;
  // duplicates come in text order: count bytes incrementally (a line of a million repeats
  // must not cost a million prefix re-encodings)
  let upTo = 0;
  let bytes = 0;
  for (const d of ev.duplicates) {
    const top = d.pointer.split('/').length === 2;
    if (top) envelopeDup = true;
    if (d.index < upTo) (upTo = 0), (bytes = 0);
    bytes += Buffer.byteLength(ev.text.slice(upTo, d.index));
    upTo = d.index;
    sink(
      framingFinding(
        'json/duplicate-key',
        {
          source: ev.source,
          line: ev.line,
          column: d.index + 1,
          byteOffset: ev.byteOffset + bytes,
          pointer: d.pointer,
        },
        top
          ? `Envelope attribute "${d.key}" appears more than once; which value counts is undefined, so the event is rejected.`
          : `Member "${d.key}" appears more than once in the same object; which value counts is undefined.`,
        top ? { spec: 'AEP-0001 §5; RFC 8259 §4' } : { severity: 'warning', spec: 'AEP-0002 §5; RFC 8259 §4' },
      ),
    );
  }
  // a repeated envelope attribute rejects the event before the envelope is read: findings
  // about the value JSON.parse happened to keep would depend on that choice
  if (envelopeDup) return undefined;
  const validate = envelopeValidator();
  if (!validate(v)) {
    for (const e of significantErrors(validate.errors ?? [])) {
      const rule = classifyEnvelopeError(e, ev.value);
      let pointer = e.instancePath;
      let message = ajvMessage(e, ev.value, "event");
      if (e.keyword === 'required') pointer = '/' + String((e.params as { missingProperty: string }).missingProperty);
      if (e.keyword === 'propertyNames') {
        const name = String((e.params as { propertyName: string }).propertyName);
        pointer = '/' + name;
        message = `Extension attribute name "${name}" is not 1-20 lowercase letters or digits ([a-z0-9]{1,20}).`;
      }
      if (rule.id.startsWith('aep/scope-')) message = scopeMessage(rule, e.keyword, pointer, String(ev.value.type));
      if (rule.id === R.typeGrammar.id) message = `Type ${JSON.stringify(ev.value.type)} does not follow the type grammar {category}.{rest} (13 core categories, lowercase [a-z0-9_] segments) or x.{vendor}.{category}.{rest}.`;
      if (rule.id === R.time.id && e.keyword === 'format' && typeof ev.value.time === 'string' && RFC3339_SHAPE.test(ev.value.time)) {
        message = `"/time" has the RFC 3339 shape but names no real instant: the date or the time of day is out of range (e.g. February 30, month 13, hour 24).`;
      }
      if (rule.id === R.nullAttribute.id) message = `Attribute "${pointer.slice(1)}" is null; an absent optional attribute is omitted, never null.`;
      if (rule.id === R.extensionValue.id && e.keyword === 'type') message = `Extension attribute "${pointer.slice(1)}" must be a string, integer or boolean.`;
      if (pointer === '/aep' && e.keyword === 'required' && typeof ev.value.jsonrpc === 'string') {
        message += ' (This line looks like a JSON-RPC message, e.g. AHP: check it with `ahp validate`.)';
      }
      sink(makeFinding(rule, { pointer, message }, ev));
    }
    return undefined;
  }
  // seq/epoch that JSON.parse cannot hold exactly (1e400, 9007199254740993.0): decide from the literal
  let inexact = false;
  for (const name of ['seq', 'epoch'] as const) {
    const n = v[name];
    if (typeof n !== 'number' || Number.isSafeInteger(n) || ev.bigIntegers.some((b) => b.pointer === '/' + name)) continue;
    const lit = numberLiteralAt(ev.text, '/' + name);
    const exact = lit === undefined ? undefined : exactIntegerOfLiteral(lit);
    if (typeof exact === 'bigint') continue;
    inexact = true;
    const shown = lit && lit.length <= 40 ? lit : `a ${lit?.length ?? 0}-character literal`;
    sink(
      makeFinding(
        R.counter,
        {
          pointer: '/' + name,
          message:
            exact === 'too-large'
              ? `"/${name}" is written as ${shown}, too large to compare exactly (exponent above ${MAX_EXACT_EXPONENT}).`
              : `"/${name}" is written as ${shown}, which is not a whole number.`,
        },
        ev,
      ),
    );
  }
  if (inexact) return undefined;
  const type = v.type as string;
  const entry = type.startsWith('x.') ? undefined : registryEntry(type);
  if (!type.startsWith('x.') && !entry) {
    sink(makeFinding(R.typeUnregistered, { pointer: '/type', message: `Type "${type}" is in the core namespace but is not registered in AEP 0.1; use a registered type or a vendor type x.{vendor}.{category}.{rest}.` }, ev));
    return undefined;
  }
  if (entry?.status === 'reserved') {
    sink(makeFinding(R.typeReserved, { pointer: '/type', message: `Type "${type}" is reserved in AEP 0.1 and has no payload definition yet.` }, ev));
  }
  let payloadValid = true;
  const data = v.data;
  if (data !== undefined && entry) {
    const pv = payloadValidator(type);
    if (pv && !pv(data)) {
      payloadValid = false;
      for (const e of significantErrors(pv.errors ?? [])) {
        const ptr = '/data' + e.instancePath + (e.keyword === 'required' ? '/' + String((e.params as { missingProperty: string }).missingProperty) : '');
        const rule = type === 'attention.requested' && ptr.startsWith('/data/fields/') ? R.fieldSpec : R.payload;
        // never echo payload values: ajvMessage describes type and length only
        sink(makeFinding(rule, { pointer: ptr, message: `${ajvMessage({ ...e, instancePath: '/data' + e.instancePath }, v, 'event').slice(0, -1)} (payload of ${type}).` }, ev));
      }
    }
  }
  const capture = (typeof v.capture === 'string' ? v.capture : 'metadata') as AepCaptureLevel;
  const out = ev as AepEvent;
  out.type = type;
  out.capture = capture;
  out.payloadValid = payloadValid;
  out.registered = entry !== undefined;
  return out;
}

/** RFC 3339 date-time syntax with an offset, ignoring calendar ranges (those are the format check's). */
const RFC3339_SHAPE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function scopeMessage(rule: RuleMeta, keyword: string, pointer: string, type: string): string {
  const name = pointer.slice(1);
  const missing = keyword === 'required';
  if (rule.id === 'aep/scope-agent') return `Agent-scoped event "${type}" must not carry "${name}" (agent.* events have no session, run, step or seq).`;
  if (rule.id === 'aep/scope-foreign') {
    return missing
      ? `"${type}" is addressed to a session and must carry "${name}".`
      : `"${type}" must not carry "${name}": commands and attention.routed are not sequenced by their sender.`;
  }
  return `Session-scoped event "${type}" must carry "${name}".`;
}

/** Build the AEP pipeline driver. */
export function aepDriver(opts: AepCheckOptions = {}): ProtocolDriver {
  const streamOpts: AepStreamOptions = { ...DEFAULT_AEP_STREAM_OPTIONS, ...opts.stream };
  return {
    name: 'aep',
    cr: 'accept-crlf',
    createChecker(sink: FindingSink, stats: RunStats): ProtocolChecker {
      const runner = new RuleRunner<AepEvent, AepStreamOptions>(AEP_EVENT_RULES, AEP_STREAM_RULES, sink, streamOpts);
      return {
        onEvent(ev) {
          const t = ev.value.type;
          if (typeof t === 'string') stats.types.set(t, (stats.types.get(t) ?? 0) + 1);
          const aev = checkAepEvent(ev, sink);
          if (!aev) return;
          if (aev.payloadValid) runner.checkEvent(aev);
          runner.streamEvent(aev);
        },
        end() {
          runner.end();
        },
      };
    },
  };
}
