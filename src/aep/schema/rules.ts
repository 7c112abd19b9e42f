import { ruleMeta, type RuleMeta } from '../../core/rule.ts';
import { AEP_SCHEMA_TEMPLATES } from './templates.ts';

/** The template of a required payload member when the event has no `data`: only the rules such members name have it. */
const NO_DATA_MESSAGES = {
  'no-data':
    'Missing required member "{member}": the event has no "data", and {type} requires "{member}" at capture {capture}.',
} as const;

/** A schema rule: its own templates, if any, then the schema stage's shared table. */
const schemaRule = <const Id extends string>(
  meta: Omit<RuleMeta, 'messages'> & { id: Id; messages?: Readonly<Record<string, string>> },
): RuleMeta & { id: Id } => ruleMeta({ ...meta, messages: meta.messages ?? {}, sharedMessages: AEP_SCHEMA_TEMPLATES });

/** The schema rules: decided by the envelope and payload schemas (their `x-rule` annotations), the type grammar and the registry. */
export const ENVELOPE_RULES = {
  required: schemaRule({
    id: 'aep/envelope-required',
    severity: 'error',
    description: 'The required attributes aep, id, type, time, source and agent are present.',
    spec: 'AEP-0001 §5.1',
  }),
  version: schemaRule({
    id: 'aep/version',
    severity: 'error',
    description: 'The `aep` attribute is exactly "0.1".',
    detail:
      'A line of another major version (`"aep": "2.0"`) is skipped and reported once per major version (AEP-0003 §3.1 #3: a reader "MUST skip the line and SHOULD report it once"): the first such line has this finding, the later ones are counted as lines set aside, never checked.',
    spec: 'AEP-0001 §5.1 #1',
    messages: {
      major:
        '"/aep" is {found:json}, major version {major}, which this checker does not read (it reads 0.1): a reader skips such lines and reports them once (AEP-0003 §3.1 #3), so this line and every later line of major version {major} are skipped, not checked.',
    },
  }),
  attributeType: schemaRule({
    id: 'aep/attribute-type',
    severity: 'error',
    description:
      'Core attributes have their declared JSON type and are non-empty strings where strings; `data` is an object.',
    spec: 'AEP-0001 §5.1',
  }),
  nullAttribute: schemaRule({
    id: 'aep/null-attribute',
    severity: 'error',
    description: 'An absent optional attribute is omitted, never written as null.',
    spec: 'AEP-0001 §5.1',
  }),
  time: schemaRule({
    id: 'aep/time-format',
    severity: 'error',
    description: '`time` is an RFC 3339 date-time with a time-zone offset and a valid calendar date.',
    spec: 'AEP-0001 §5.1 #5',
  }),
  source: schemaRule({
    id: 'aep/source-uri',
    severity: 'error',
    description:
      '`source` is an RFC 3986 URI (scheme ":" hier-part, ASCII only); a query and a fragment are allowed, since AEP-0001 §5.1 #6 types it "URI string", not absolute-URI.',
    spec: 'AEP-0001 §5.1 #6',
  }),
  enumValue: schemaRule({
    id: 'aep/enum',
    severity: 'error',
    description: '`severity` and `capture` take one of their registered values.',
    spec: 'AEP-0001 §8.1, §8.2',
  }),
  traceparent: schemaRule({
    id: 'aep/traceparent',
    severity: 'error',
    description: '`traceparent` is a W3C Trace Context traceparent value.',
    detail:
      'Version, trace-id, parent-id and flags in lowercase hex (2-32-16-2), version not ff, trace-id and parent-id not all zero, 55 characters as in the registry pattern.',
    spec: 'AEP-0001 §5.1 #14; W3C Trace Context §3.2.2',
  }),
  counter: schemaRule({
    id: 'aep/seq-epoch',
    severity: 'error',
    description: '`seq` and `epoch` are non-negative integers.',
    spec: 'AEP-0001 §5.1 #11-12',
    messages: {
      large: '"/{name}" is written as {literal}, too large to compare exactly (exponent above {max}).',
      'large-long':
        '"/{name}" is written as a {length}-character literal, too large to compare exactly (exponent above {max}).',
      fraction: '"/{name}" is written as {literal}, which is not a whole number.',
      'fraction-long': '"/{name}" is written as a {length}-character literal, which is not a whole number.',
    },
  }),
  extensionName: schemaRule({
    id: 'aep/extension-name',
    severity: 'error',
    description: 'Extension attribute names are 1-20 lowercase letters or digits.',
    spec: 'AEP-0001 §5.4',
  }),
  extensionValue: schemaRule({
    id: 'aep/extension-value',
    severity: 'error',
    description: 'Extension attribute values are strings, integers or booleans.',
    spec: 'AEP-0001 §5.4',
  }),
  scopeSession: schemaRule({
    id: 'aep/scope-session',
    severity: 'error',
    description: 'Session-scoped events carry `session` and `seq`.',
    spec: 'AEP-0001 §5.2',
  }),
  scopeAgent: schemaRule({
    id: 'aep/scope-agent',
    severity: 'error',
    description:
      'Agent-scoped events (category agent: `agent.*`, `x.{vendor}.agent.*`) carry none of session, run, step, seq.',
    spec: 'AEP-0001 §5.2',
  }),
  scopeForeign: schemaRule({
    id: 'aep/scope-foreign',
    severity: 'error',
    description: 'Commands and `attention.routed` carry `session` but no `seq`.',
    spec: 'AEP-0004 §2.2; AEP-0002 §7.3',
  }),
  typeGrammar: schemaRule({
    id: 'aep/type-grammar',
    severity: 'error',
    description: '`type` follows the grammar {category}.{rest} or x.{vendor}.{category}.{rest}.',
    spec: 'AEP-0001 §6; AEP-0002 §3',
  }),
  typeUnregistered: schemaRule({
    id: 'aep/type-unregistered',
    severity: 'error',
    description: 'A core-namespace type is registered in the AEP 0.1 registry.',
    spec: 'AEP-0002 §4; AEP-0001 §10',
    messages: {
      unregistered:
        'Type "{type}" is in the core namespace but is not registered in AEP 0.1; use a registered type or a vendor type {grammar}.',
      near: 'Type "{type}" is in the core namespace but is not registered in AEP 0.1; the nearest registered type is "{nearest}" (or use a vendor type {grammar}).',
    },
  }),
  typeReserved: schemaRule({
    id: 'aep/type-reserved',
    severity: 'warning',
    description: 'A reserved type is not emitted in 0.1.',
    spec: 'AEP-0002 §4, §6',
    messages: {
      reserved: 'Type "{type}" is reserved in AEP 0.1 and has no payload definition yet.',
    },
  }),
  costCurrency: schemaRule({
    id: 'aep/cost-currency',
    severity: 'error',
    description: '`cost.currency` is an ISO 4217 alphabetic code in force (e.g. "USD").',
    detail:
      'One the runtime lists in `Intl.supportedValuesOf("currency")`, not any three capitals ("ABC" is refused); a code newer than the runtime\'s ICU data is refused too.',
    spec: 'AEP-0002 §5.2 cost',
  }),
  citationOffset: schemaRule({
    id: 'aep/citation-offset',
    severity: 'error',
    description:
      'A citation `offset` populates at most one of its variants `char`, `page` and `block` (a present member counts as populated).',
    spec: 'AEP-0002 §5.2 citation',
  }),
  payload: schemaRule({
    id: 'aep/payload-schema',
    severity: 'error',
    description: '`data` validates against the payload schema of its registered type.',
    spec: 'AEP-0002 §5',
    // the rule every required payload member names (test/aep-schemas/absent-data.test.ts holds the relation)
    messages: NO_DATA_MESSAGES,
  }),
  payloadDuplicate: schemaRule({
    id: 'aep/payload-duplicate-key',
    severity: 'warning',
    description:
      'A member name is repeated inside a payload (or another nested object) with equal copies, or in a payload no schema checks.',
    detail:
      'Which copy counts cannot change a verdict; a repeated envelope attribute is json/duplicate-key, differing copies in a checked payload aep/payload-duplicate-conflict.',
    spec: 'AEP-0002 §5; RFC 8259 §4',
    messages: {
      unchecked:
        'Member "{member}" appears more than once in the same object (no schema checks this payload); which one counts is undefined.',
      equal:
        'Member "{member}" appears more than once in the same object (its copies are equal); which one counts is undefined.',
    },
  }),
  payloadDuplicateConflict: schemaRule({
    id: 'aep/payload-duplicate-conflict',
    severity: 'error',
    description: 'A member name repeated inside the payload of a registered type has copies that differ.',
    detail:
      'Consumers that keep different copies read different payloads, so no verdict about it holds whatever the member order (copies are compared as canonical JSON).',
    spec: 'AEP-0002 §5; RFC 8259 §4',
    messages: {
      conflict:
        'Member "{member}" appears {copies} times with copies that differ; the checks read the last copy, but a consumer that keeps another one reads a different payload, so the event is rejected whatever the member order.',
    },
  }),
  fieldSpec: schemaRule({
    id: 'aep/form-field-spec',
    severity: 'error',
    description: 'Every form field_spec has id, type and label, and a select field has choices.',
    spec: 'AEP-0006; AEP-0002 §5.2 field_spec',
  }),
} as const;
