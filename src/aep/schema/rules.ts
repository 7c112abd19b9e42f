import type { RuleMeta } from '../../core/rule.ts';

/** Every schema rule's templates: the schema stage's sentence as it is, in a payload, or for an absent payload. */
const SCHEMA_MESSAGES = {
  schema: '{sentence}',
  payload: '{sentence} (payload of {type}).',
  'no-data':
    'Missing required member "{member}": the event has no "data", and {type} requires "{member}" at capture {capture}.',
} as const;

const r = (
  id: string,
  severity: RuleMeta['severity'],
  description: string,
  spec: string,
  messages: Readonly<Record<string, string>> = {},
): RuleMeta => ({ id, severity, description, spec, messages: { ...SCHEMA_MESSAGES, ...messages } });

/** The schema rules: decided by the envelope and payload schemas (their `x-rule` annotations), the type grammar and the registry. */
export const ENVELOPE_RULES = {
  required: r(
    'aep/envelope-required',
    'error',
    'The required attributes aep, id, type, time, source and agent are present.',
    'AEP-0001 §5.1',
  ),
  version: r('aep/version', 'error', 'The `aep` attribute is exactly "0.1".', 'AEP-0001 §5.1 #1'),
  attributeType: r(
    'aep/attribute-type',
    'error',
    'Core attributes have their declared JSON type and are non-empty strings where strings; `data` is an object.',
    'AEP-0001 §5.1',
  ),
  nullAttribute: r(
    'aep/null-attribute',
    'error',
    'An absent optional attribute is omitted, never written as null.',
    'AEP-0001 §5.1',
  ),
  time: r(
    'aep/time-format',
    'error',
    '`time` is an RFC 3339 date-time with a time-zone offset and a valid calendar date.',
    'AEP-0001 §5.1 #5',
  ),
  source: r(
    'aep/source-uri',
    'error',
    '`source` is an RFC 3986 URI (scheme ":" hier-part, ASCII only); a query and a fragment are allowed, since AEP-0001 §5.1 #6 types it "URI string", not absolute-URI.',
    'AEP-0001 §5.1 #6',
  ),
  enumValue: r(
    'aep/enum',
    'error',
    '`severity` and `capture` take one of their registered values.',
    'AEP-0001 §8.1, §8.2',
  ),
  traceparent: r(
    'aep/traceparent',
    'error',
    '`traceparent` is a W3C Trace Context traceparent value: version, trace-id, parent-id and flags in lowercase hex (2-32-16-2), version not ff, trace-id and parent-id not all zero, 55 characters as in the registry pattern.',
    'AEP-0001 §5.1 #14; W3C Trace Context §3.2.2',
  ),
  counter: r('aep/seq-epoch', 'error', '`seq` and `epoch` are non-negative integers.', 'AEP-0001 §5.1 #11-12', {
    large: '"/{name}" is written as {literal}, too large to compare exactly (exponent above {max}).',
    'large-long':
      '"/{name}" is written as a {length}-character literal, too large to compare exactly (exponent above {max}).',
    fraction: '"/{name}" is written as {literal}, which is not a whole number.',
    'fraction-long': '"/{name}" is written as a {length}-character literal, which is not a whole number.',
  }),
  extensionName: r(
    'aep/extension-name',
    'error',
    'Extension attribute names are 1-20 lowercase letters or digits.',
    'AEP-0001 §5.4',
  ),
  extensionValue: r(
    'aep/extension-value',
    'error',
    'Extension attribute values are strings, integers or booleans.',
    'AEP-0001 §5.4',
  ),
  scopeSession: r('aep/scope-session', 'error', 'Session-scoped events carry `session` and `seq`.', 'AEP-0001 §5.2'),
  scopeAgent: r(
    'aep/scope-agent',
    'error',
    'Agent-scoped (`agent.*`) events carry none of session, run, step, seq.',
    'AEP-0001 §5.2',
  ),
  scopeForeign: r(
    'aep/scope-foreign',
    'error',
    'Commands and `attention.routed` carry `session` but no `seq`.',
    'AEP-0004 §2.2; AEP-0002 §7.3',
  ),
  typeGrammar: r(
    'aep/type-grammar',
    'error',
    '`type` follows the grammar {category}.{rest} or x.{vendor}.{category}.{rest}.',
    'AEP-0001 §6; AEP-0002 §3',
  ),
  typeUnregistered: r(
    'aep/type-unregistered',
    'error',
    'A core-namespace type is registered in the AEP 0.1 registry.',
    'AEP-0002 §4; AEP-0001 §10',
    {
      unregistered:
        'Type "{type}" is in the core namespace but is not registered in AEP 0.1; use a registered type or a vendor type {grammar}.',
    },
  ),
  typeReserved: r('aep/type-reserved', 'warning', 'A reserved type is not emitted in 0.1.', 'AEP-0002 §4, §6', {
    reserved: 'Type "{type}" is reserved in AEP 0.1 and has no payload definition yet.',
  }),
  costCurrency: r(
    'aep/cost-currency',
    'error',
    '`cost.currency` is an ISO 4217 alphabetic code in force (e.g. "USD"): one the runtime lists in `Intl.supportedValuesOf("currency")`, not any three capitals ("ABC" is refused); a code newer than the runtime\'s ICU data is refused too.',
    'AEP-0002 §5.2 cost',
  ),
  citationOffset: r(
    'aep/citation-offset',
    'error',
    'A citation `offset` populates at most one of its variants `char`, `page` and `block` (a present member counts as populated).',
    'AEP-0002 §5.2 citation',
  ),
  payload: r(
    'aep/payload-schema',
    'error',
    '`data` validates against the payload schema of its registered type.',
    'AEP-0002 §5',
  ),
  payloadDuplicate: r(
    'aep/payload-duplicate-key',
    'warning',
    'A member name is repeated inside a payload (or another nested object) with equal copies, or in a payload no schema checks: which copy counts cannot change a verdict; a repeated envelope attribute is json/duplicate-key, differing copies in a checked payload aep/payload-duplicate-conflict.',
    'AEP-0002 §5; RFC 8259 §4',
    {
      unchecked:
        'Member "{member}" appears more than once in the same object (no schema checks this payload); which one counts is undefined.',
      equal:
        'Member "{member}" appears more than once in the same object (its copies are equal); which one counts is undefined.',
    },
  ),
  payloadDuplicateConflict: r(
    'aep/payload-duplicate-conflict',
    'error',
    'A member name repeated inside the payload of a registered type has copies that differ: consumers that keep different copies read different payloads, so no verdict about it holds whatever the member order (copies are compared as canonical JSON).',
    'AEP-0002 §5; RFC 8259 §4',
    {
      conflict:
        'Member "{member}" appears {copies} times with copies that differ; the checks read the last copy, but a consumer that keeps another one reads a different payload, so the event is rejected whatever the member order.',
    },
  ),
  fieldSpec: r(
    'aep/form-field-spec',
    'error',
    'Every form field_spec has id, type and label, and a select field has choices.',
    'AEP-0006; AEP-0002 §5.2 field_spec',
  ),
} as const;
