/**
 * AEP envelope and type rules, and AEP's wording of schema errors. The schema rules are decided
 * by our envelope schema (schemas/aep/envelope.schema.json), whose `x-rule` annotations name the
 * rule of each schema location, and by the registry. AEP-0001 §5-§6, AEP-0002 §3-§4, AEP-0004 §2.2.
 */
import type { MessageContext, Wording } from '../../core/schema/findings.ts';
import { explainDateTime } from '../../core/schema/formats.ts';
import { locatedSentence, quotedAttribute } from '../../core/schema/wording.ts';
import type { RuleMeta } from '../../core/rule.ts';

const r = (id: string, severity: RuleMeta['severity'], description: string, spec: string): RuleMeta => ({
  id,
  severity,
  description,
  spec,
});

/** Rules decided by the envelope schema, the type grammar and the registry. */
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
  counter: r('aep/seq-epoch', 'error', '`seq` and `epoch` are non-negative integers.', 'AEP-0001 §5.1 #11-12'),
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
  ),
  typeReserved: r('aep/type-reserved', 'warning', 'A reserved type is not emitted in 0.1.', 'AEP-0002 §4, §6'),
  costCurrency: r(
    'aep/cost-currency',
    'error',
    '`cost.currency` is an ISO 4217 alphabetic code: three upper-case letters (e.g. "USD").',
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
  ),
  payloadDuplicateConflict: r(
    'aep/payload-duplicate-conflict',
    'error',
    'A member name repeated inside the payload of a registered type has copies that differ: consumers that keep different copies read different payloads, so no verdict about it holds whatever the member order (copies are compared as canonical JSON).',
    'AEP-0002 §5; RFC 8259 §4',
  ),
  fieldSpec: r(
    'aep/form-field-spec',
    'error',
    'Every form field_spec has id, type and label, and a select field has choices.',
    'AEP-0006; AEP-0002 §5.2 field_spec',
  ),
} as const;

/** RFC 3339 §5.6 date-time syntax, ignoring calendar ranges (a value of this shape that fails the format names no real instant). */
const RFC3339_SHAPE = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * How AEP words schema errors: located sentences (`"/seq" must be integer, found string.`);
 * a `required` error points at the missing member. `label` names the validated whole (`event`,
 * or `payload` when a payload is checked alone). The keys are the `x-message` entries of
 * schemas/aep/envelope.schema.json (AEP-0001 §5.1-§5.4, AEP-0004 §2.2).
 */
export function aepWording(label = 'event'): Wording {
  const typeOf = (c: MessageContext): string => String((c.instance as Record<string, unknown> | null)?.type);
  return {
    // aep/version shows what it found: an envelope attribute, routing metadata
    generic: (c) =>
      c.ruleId === ENVELOPE_RULES.version.id && c.keyword === 'const'
        ? `${locatedSentence(c, label).slice(0, -1)}, found ${quotedAttribute(c.value)}.`
        : locatedSentence(c, label),
    requiredPointer: 'member',
    additionalPointer: 'object',
    keys: {
      'envelope-required': (c) => {
        const jsonrpc = typeof (c.instance as Record<string, unknown>).jsonrpc === 'string';
        return (
          c.generic() +
          (c.member === 'aep' && jsonrpc
            ? ' (This line looks like a JSON-RPC message, e.g. AHP: check it with `ahp validate`.)'
            : '')
        );
      },
      'null-attribute': (c) =>
        `Attribute "${c.path.slice(1)}" is null; an absent optional attribute is omitted, never null.`,
      'type-grammar': (c) =>
        `Type ${JSON.stringify((c.instance as Record<string, unknown>).type)} does not follow the type grammar {category}.{rest} (13 core categories, lowercase [a-z0-9_] segments) or x.{vendor}.{category}.{rest}.`,
      'time-format': (c) =>
        typeof c.value === 'string' && RFC3339_SHAPE.test(c.value)
          ? `"${c.path}" has the RFC 3339 shape but names no real instant: ${explainDateTime(c.value) ?? 'the date or the time of day is out of range'}.`
          : c.generic(),
      traceparent: (c) =>
        `"${c.path}" is not a W3C Trace Context traceparent: version-trace-id-parent-id-flags in lowercase hex (2-32-16-2 digits), version not ff, trace-id and parent-id not all zeros.`,
      'cost-currency': (c) =>
        `"${c.path}" is not an ISO 4217 alphabetic currency code (three upper-case letters, e.g. "USD").`,
      'citation-offset': (c) => {
        const o = c.value;
        if (o === null || typeof o !== 'object' || Array.isArray(o))
          return `"${c.path}" is not an object; a citation offset is an object that populates at most one of char, page and block.`;
        const set = ['char', 'page', 'block'].filter((k) => Object.hasOwn(o, k));
        return `"${c.path}" populates ${set.length} offset variants (${set.join(', ')}); a citation offset populates at most one of char, page and block.`;
      },
      'extension-name': (c) =>
        `Extension attribute name "${c.member ?? ''}" is not 1-20 lowercase letters or digits ([a-z0-9]{1,20}).`,
      'extension-value': (c) => `Extension attribute "${c.path.slice(1)}" must be a string, integer or boolean.`,
      scope: (c) => {
        const name = c.pointer.slice(1);
        const type = typeOf(c);
        if (c.ruleId === ENVELOPE_RULES.scopeAgent.id)
          return `Agent-scoped event "${type}" must not carry "${name}" (agent.* events have no session, run, step or seq).`;
        if (c.ruleId === ENVELOPE_RULES.scopeForeign.id) {
          return c.keyword === 'required'
            ? `"${type}" is addressed to a session and must carry "${name}".`
            : `"${type}" must not carry "${name}": commands and attention.routed are not sequenced by their sender.`;
        }
        return `Session-scoped event "${type}" must carry "${name}".`;
      },
    },
  };
}
