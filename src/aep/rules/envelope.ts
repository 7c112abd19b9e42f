/**
 * AEP envelope and type rules. These are decided by our envelope schema
 * (schemas/aep/envelope.schema.json) and the registry; {@link classifyEnvelopeError} maps each
 * ajv error to exactly one of these rule ids. AEP-0001 §5-§6, AEP-0002 §3-§4, AEP-0004 §2.2.
 */
import type { ErrorObject } from '../../core/ajv.ts';
import type { RuleMeta } from '../../core/rule.ts';
import { scopeOf } from '../event.ts';

const r = (id: string, severity: RuleMeta['severity'], description: string, spec: string): RuleMeta => ({ id, severity, description, spec });

/** Rules decided by the envelope schema, the type grammar and the registry. */
export const ENVELOPE_RULES = {
  required: r('aep/envelope-required', 'error', 'The required attributes aep, id, type, time, source and agent are present.', 'AEP-0001 §5.1'),
  version: r('aep/version', 'error', 'The `aep` attribute is exactly "0.1".', 'AEP-0001 §5.1 #1'),
  attributeType: r('aep/attribute-type', 'error', 'Core attributes have their declared JSON type and are non-empty strings where strings; `data` is an object.', 'AEP-0001 §5.1'),
  nullAttribute: r('aep/null-attribute', 'error', 'An absent optional attribute is omitted, never written as null.', 'AEP-0001 §5.1'),
  time: r('aep/time-format', 'error', '`time` is an RFC 3339 date-time with a time-zone offset and a valid calendar date.', 'AEP-0001 §5.1 #5'),
  source: r('aep/source-uri', 'error', '`source` is an absolute URI.', 'AEP-0001 §5.1 #6'),
  enumValue: r('aep/enum', 'error', '`severity` and `capture` take one of their registered values.', 'AEP-0001 §8.1, §8.2'),
  traceparent: r('aep/traceparent', 'error', '`traceparent` is a W3C Trace Context traceparent value.', 'AEP-0001 §5.1 #14'),
  counter: r('aep/seq-epoch', 'error', '`seq` and `epoch` are non-negative integers.', 'AEP-0001 §5.1 #11-12'),
  extensionName: r('aep/extension-name', 'error', 'Extension attribute names are 1-20 lowercase letters or digits.', 'AEP-0001 §5.4'),
  extensionValue: r('aep/extension-value', 'error', 'Extension attribute values are strings, integers or booleans.', 'AEP-0001 §5.4'),
  scopeSession: r('aep/scope-session', 'error', 'Session-scoped events carry `session` and `seq`.', 'AEP-0001 §5.2'),
  scopeAgent: r('aep/scope-agent', 'error', 'Agent-scoped (`agent.*`) events carry none of session, run, step, seq.', 'AEP-0001 §5.2'),
  scopeForeign: r('aep/scope-foreign', 'error', 'Commands and `attention.routed` carry `session` but no `seq`.', 'AEP-0004 §2.2; AEP-0002 §7.3'),
  typeGrammar: r('aep/type-grammar', 'error', '`type` follows the grammar {category}.{rest} or x.{vendor}.{category}.{rest}.', 'AEP-0001 §6; AEP-0002 §3'),
  typeUnregistered: r('aep/type-unregistered', 'error', 'A core-namespace type is registered in the AEP 0.1 registry.', 'AEP-0002 §4; AEP-0001 §10'),
  typeReserved: r('aep/type-reserved', 'warning', 'A reserved type is not emitted in 0.1.', 'AEP-0002 §4, §6'),
  payload: r('aep/payload-schema', 'error', '`data` validates against the payload schema of its registered type.', 'AEP-0002 §5'),
  fieldSpec: r('aep/form-field-spec', 'error', 'Every form field_spec has id, type and label, and a select field has choices.', 'AEP-0006; AEP-0002 §5.2 field_spec'),
} as const;

/** The 17 core context attributes; any other top-level member is an extension (AEP-0001 §5.1, §5.4). */
const CORE_ATTRS = new Set(['aep', 'id', 'type', 'subject', 'time', 'source', 'agent', 'session', 'run', 'step', 'seq', 'epoch', 'cause', 'traceparent', 'severity', 'capture', 'data']);

/**
 * The rule an envelope-schema error belongs to. `type` is the event's type when it is a
 * string (decides which scoping rule applies).
 */
export function classifyEnvelopeError(e: ErrorObject, value: Record<string, unknown>): RuleMeta {
  const R = ENVELOPE_RULES;
  if (e.schemaPath.includes('/allOf/') && e.schemaPath.includes('/then/')) {
    const t = typeof value.type === 'string' ? value.type : '';
    const s = scopeOf(t);
    return s === 'agent' ? R.scopeAgent : s === 'foreign' ? R.scopeForeign : R.scopeSession;
  }
  if (e.keyword === 'propertyNames') return R.extensionName;
  const name = e.instancePath.split('/')[1] ?? '';
  if (e.keyword === 'required') return R.required;
  if (name && !CORE_ATTRS.has(name)) return R.extensionValue;
  if (e.keyword === 'type' && name && value[name] === null) return R.nullAttribute;
  switch (name) {
    case 'aep':
      return R.version;
    case 'time':
      return e.keyword === 'format' ? R.time : R.attributeType;
    case 'source':
      return e.keyword === 'format' ? R.source : R.attributeType;
    case 'severity':
    case 'capture':
      return e.keyword === 'enum' ? R.enumValue : R.attributeType;
    case 'traceparent':
      return e.keyword === 'pattern' ? R.traceparent : R.attributeType;
    case 'seq':
    case 'epoch':
      return R.counter;
    case 'type':
      return e.keyword === 'pattern' ? R.typeGrammar : R.attributeType;
    default:
      return R.attributeType;
  }
}
