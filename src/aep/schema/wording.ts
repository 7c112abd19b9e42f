import type { MessageContext, SchemaMessage, Wording } from '../../core/schema/findings.ts';
import { explainDateTime } from '../../core/schema/formats.ts';
import { locatedMessage } from '../../core/schema/wording.ts';
import { describeValue } from '../../core/finding.ts';
import { ENVELOPE_RULES } from './rules.ts';
import { AEP_SCHEMA_TEMPLATES } from './templates.ts';

/** RFC 3339 §5.6 date-time syntax, ignoring calendar ranges (a value of this shape that fails the format names no real instant). */
const RFC3339_SHAPE = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** `m` with its message id and arguments as one of the envelope's keys. */
const keyed = (c: MessageContext, messageId: string, args: SchemaMessage['args']): SchemaMessage => ({
  messageId,
  args: { keyword: c.keyword, ...args },
});

/**
 * AEP's wording of schema errors (located sentences; `required` points at the missing member), keyed by the `x-message`
 * entries of schemas/aep/envelope.schema.json; `label` names the whole (`event`, `payload`).
 */
export function aepWording(label = 'event'): Wording {
  const typeOf = (c: MessageContext): string => String((c.instance as Record<string, unknown> | null)?.type);
  return {
    templates: AEP_SCHEMA_TEMPLATES,
    // aep/version shows what it found: an envelope attribute, routing metadata
    generic: (c) => {
      const m = locatedMessage(c, label);
      if (c.ruleId !== ENVELOPE_RULES.version.id || c.keyword !== 'const') return m;
      return {
        messageId: m.messageId.replace('const', 'const-found'),
        args: { ...m.args, found: quotedAttribute(c.value) },
      };
    },
    requiredPointer: 'member',
    additionalPointer: 'object',
    keys: {
      'envelope-required': (c) => {
        const m = c.generic();
        const jsonrpc = typeof (c.instance as Record<string, unknown>).jsonrpc === 'string';
        return c.member === 'aep' && jsonrpc ? { ...m, messageId: `${m.messageId}.jsonrpc` } : m;
      },
      'null-attribute': (c) => keyed(c, 'null-attribute', { attribute: c.path.slice(1) }),
      'type-grammar': (c) => {
        const type = (c.instance as Record<string, unknown>).type;
        const stream = typeof type === 'string' && type.startsWith('stream.');
        return keyed(c, stream ? 'type-grammar.stream' : 'type-grammar', {
          type: String(type),
          grammar: '{category}.{rest}',
          vendorGrammar: 'x.{vendor}.{category}.{rest}',
        });
      },
      'time-format': (c) =>
        typeof c.value === 'string' && RFC3339_SHAPE.test(c.value)
          ? keyed(c, 'time-format', {
              path: c.path,
              why: explainDateTime(c.value) ?? 'the date or the time of day is out of range',
            })
          : c.generic(),
      traceparent: (c) => keyed(c, 'traceparent', { path: c.path }),
      'cost-currency': (c) => keyed(c, 'cost-currency', { path: c.path }),
      'citation-offset': (c) => {
        const o = c.value;
        if (o === null || typeof o !== 'object' || Array.isArray(o))
          return keyed(c, 'citation-offset.type', { path: c.path });
        const set = ['char', 'page', 'block'].filter((k) => Object.hasOwn(o, k));
        return keyed(c, 'citation-offset', { path: c.path, count: set.length, variants: set.join(', ') });
      },
      'extension-name': (c) => keyed(c, 'extension-name', { member: c.member ?? '' }),
      'extension-value': (c) => keyed(c, 'extension-value', { attribute: c.path.slice(1) }),
      scope: (c) => {
        const args = { attribute: c.pointer.slice(1), type: typeOf(c) };
        if (c.ruleId === ENVELOPE_RULES.scopeAgent.id) return keyed(c, 'scope-agent', args);
        if (c.ruleId === ENVELOPE_RULES.scopeForeign.id)
          return keyed(c, c.keyword === 'required' ? 'scope-foreign.required' : 'scope-foreign', args);
        return keyed(c, 'scope-session', args);
      },
    },
  };
}

/** An envelope attribute quoted for a message (routing metadata), cut at 40; never for payload content. */
export function quotedAttribute(v: unknown): string {
  if (typeof v === 'string') {
    const cps = [...v];
    return cps.length > 40
      ? `${JSON.stringify(cps.slice(0, 40).join(''))}… (${cps.length} characters)`
      : JSON.stringify(v);
  }
  if (typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  return describeValue(v);
}
