import type { MessageContext, Wording } from '../../core/schema/findings.ts';
import { explainDateTime } from '../../core/schema/formats.ts';
import { locatedSentence, quotedAttribute } from '../../core/schema/wording.ts';
import { ENVELOPE_RULES } from './rules.ts';

/** RFC 3339 §5.6 date-time syntax, ignoring calendar ranges (a value of this shape that fails the format names no real instant). */
const RFC3339_SHAPE = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * AEP's wording of schema errors (located sentences; `required` points at the missing member), keyed by the `x-message`
 * entries of schemas/aep/envelope.schema.json; `label` names the whole (`event`, `payload`).
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
      'type-grammar': (c) => {
        const type = (c.instance as Record<string, unknown>).type;
        const hint =
          typeof type === 'string' && type.startsWith('stream.')
            ? ' The stream category is added by AEP-0007, a Draft: check with --profile aep-0007 to accept it.'
            : '';
        return `Type ${JSON.stringify(type)} does not follow the type grammar {category}.{rest} (13 core categories, lowercase [a-z0-9_] segments) or x.{vendor}.{category}.{rest}.${hint}`;
      },
      'time-format': (c) =>
        typeof c.value === 'string' && RFC3339_SHAPE.test(c.value)
          ? `"${c.path}" has the RFC 3339 shape but names no real instant: ${explainDateTime(c.value) ?? 'the date or the time of day is out of range'}.`
          : c.generic(),
      traceparent: (c) =>
        `"${c.path}" is not a W3C Trace Context traceparent: version-trace-id-parent-id-flags in lowercase hex (2-32-16-2 digits), version not ff, trace-id and parent-id not all zeros.`,
      'cost-currency': (c) =>
        `"${c.path}" is not an ISO 4217 alphabetic currency code in force (e.g. "USD"; the codes Intl.supportedValuesOf("currency") lists).`,
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
