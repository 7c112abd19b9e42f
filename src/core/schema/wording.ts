/**
 * Generic schema-stage sentences per ajv keyword, in two styles that name what was found, never the value:
 * locatedSentence (AEP, `"/seq" must be integer, found string.`) and phrase (AHP, `must be a string, found an
 * integer`).
 */
import { describeValue } from '../finding.ts';
import type { MessageContext } from './findings.ts';
import { explainDateTime, type FormatName } from './formats.ts';

/** What each format means, per style: `located` (AEP), `phrase` (AHP), `answer` (MCP form answers). */
export const FORMAT_WORDS: Readonly<Record<FormatName, { located: string; phrase: string; answer: string }>> = {
  'date-time': {
    located: 'an RFC 3339 date-time with a time-zone offset (e.g. 2025-01-01T12:00:00Z)',
    phrase: 'an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss with Z or ±hh:mm)',
    answer: 'an RFC 3339 date-time',
  },
  uri: {
    located:
      'an RFC 3986 URI (scheme ":" hier-part, ASCII only; a port is digits, one "@" ends the userinfo, "%" takes two hex digits)',
    phrase: 'an RFC 3986 URI (scheme required)',
    answer: 'a URI (RFC 3986, scheme required)',
  },
  'absolute-uri': {
    located: 'an RFC 3986 absolute-URI (scheme ":" hier-part [ "?" query ], no fragment)',
    phrase: 'an RFC 3986 absolute-URI (scheme required, no "#" fragment)',
    answer: 'an absolute URI without a fragment',
  },
  email: { located: 'an email address', phrase: 'an email address', answer: 'an email address' },
  iso4217: {
    located: 'an ISO 4217 alphabetic currency code in force (e.g. "USD")',
    phrase: 'an ISO 4217 currency code (e.g. "USD")',
    answer: 'an ISO 4217 currency code',
  },
  date: {
    located: 'an RFC 3339 full-date',
    phrase: 'a calendar date (YYYY-MM-DD)',
    answer: 'a calendar date (YYYY-MM-DD)',
  },
};

const formatWord = (name: unknown, style: 'located' | 'phrase'): string =>
  FORMAT_WORDS[String(name) as FormatName]?.[style] ?? `a valid ${String(name)}`;

/** `: <which part fails>` for a string that fails `date-time` ({@link explainDateTime}), else nothing. */
function formatWhy(format: unknown, value: unknown): string {
  if (format !== 'date-time' || typeof value !== 'string') return '';
  const why = explainDateTime(value);
  return why ? `: ${why}` : '';
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

const TYPE_NAMES: Readonly<Record<string, string>> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
};

const lit = (v: unknown): string => JSON.stringify(v);
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** A located sentence for one error: the member, what was expected, the kind found (`label` names the whole). */
export function locatedSentence(c: MessageContext, label = 'value'): string {
  const e = c.error;
  const at = c.path === '' ? 'the ' + label : `"${c.path}"`;
  const found = () => describeValue(c.value);
  const p = e.params as Record<string, unknown>;
  switch (c.keyword) {
    case 'required':
      return `Missing required member "${String(p.missingProperty)}" in ${at}.`;
    case 'type':
      return `${cap(at)} must be ${String(p.type).replace(',', ' or ')}, found ${found()}.`;
    case 'const':
      return `${cap(at)} must be ${lit(p.allowedValue)}.`;
    case 'enum':
      return `${cap(at)} must be one of ${(p.allowedValues as unknown[]).map(lit).join(', ')}.`;
    case 'pattern':
      return `${cap(at)} does not match the required pattern ${String(p.pattern)}.`;
    case 'format':
      return `${cap(at)} is not ${formatWord(p.format, 'located')}${formatWhy(p.format, c.value)}.`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${cap(at)} must be ${String(p.comparison)} ${String(p.limit)}.`;
    case 'minLength':
      return Number(p.limit) === 1
        ? `${cap(at)} must not be empty.`
        : `${cap(at)} must be at least ${String(p.limit)} characters (code points) long, found ${found()}.`;
    case 'maxLength':
      return `${cap(at)} must be at most ${String(p.limit)} characters (code points) long, found ${found()}.`;
    case 'minItems':
      return `${cap(at)} must have at least ${String(p.limit)} items.`;
    case 'maxItems':
      return `${cap(at)} must have at most ${String(p.limit)} items.`;
    case 'minProperties':
      return `${cap(at)} must have at least ${String(p.limit)} members.`;
    case 'additionalProperties':
      return `${cap(at)} has a member "${String(p.additionalProperty)}" that is not allowed here.`;
    case 'unevaluatedProperties':
      return `${cap(at)} has a member "${String(p.unevaluatedProperty)}" that is not allowed here.`;
    case 'propertyNames':
      return `${cap(at)} has a member name "${String(p.propertyName)}" that is not allowed.`;
    case 'false schema':
      return `${cap(at)} must not be present here.`;
    case 'uniqueItems':
      return `${cap(at)} must not repeat items (items ${String(p.j)} and ${String(p.i)} are equal).`;
    case 'oneOf':
      return `${cap(at)} must match exactly one of its allowed shapes.`;
    case 'anyOf':
      return `${cap(at)} matches none of its allowed shapes.`;
    case 'not':
      return `${cap(at)} has a shape that is not allowed here.`;
    case 'dependentRequired':
      return `${cap(at)} must have "${String(p.missingProperty)}" when it has "${String(p.property)}".`;
    case 'multipleOf':
      return `${cap(at)} must be a multiple of ${String(p.multipleOf)}.`;
    default:
      return `${cap(at)} ${e.message ?? 'is invalid'}.`;
  }
}

/** A predicate phrase for one error, for the location its finding points at. */
export function phrase(c: MessageContext): string {
  const e = c.error;
  const p = e.params as Record<string, unknown>;
  const found = () => describeValue(c.value);
  switch (c.keyword) {
    case 'required':
      return `\`${String(p.missingProperty)}\` is required here`;
    case 'additionalProperties':
      return `\`${String(p.additionalProperty)}\` is not allowed here (closed object)`;
    case 'type': {
      const types = (Array.isArray(p.type) ? p.type : String(p.type).split(',')).map(
        (t) => TYPE_NAMES[String(t)] ?? String(t),
      );
      return `must be ${types.join(' or ')}, found ${found()}`;
    }
    case 'const':
      return `must be ${lit(p.allowedValue)}`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map(lit).join(', ')}`;
    case 'pattern':
      return `does not have the required form (found ${found()})`;
    case 'format':
      return `must be ${formatWord(p.format, 'phrase')}${formatWhy(p.format, c.value)}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(p.comparison)} ${String(p.limit)}`;
    case 'minLength':
      return Number(p.limit) === 1
        ? 'must not be empty'
        : `must be at least ${String(p.limit)} characters (code points) long (found ${found()})`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters (code points) long (found ${found()})`;
    case 'minItems':
      return Number(p.limit) === 1
        ? 'must not be empty'
        : `must have at least ${String(p.limit)} items (found ${found()})`;
    case 'maxItems':
      return Number(p.limit) === 0
        ? `must be empty (found ${found()})`
        : `must have at most ${String(p.limit)} items (found ${found()})`;
    case 'minProperties':
      return `must have at least ${String(p.limit)} members`;
    case 'uniqueItems':
      return `must not repeat items (items ${String(p.j)} and ${String(p.i)} are equal)`;
    case 'contains':
      return 'must contain a matching item';
    case 'propertyNames':
      return 'has a member name that is not allowed';
    case 'false schema':
      return 'is not allowed here';
    case 'oneOf':
      return p.passingSchemas ? 'matches more than one of its allowed shapes' : 'matches none of its allowed shapes';
    case 'anyOf':
      return 'matches none of its allowed shapes';
    case 'not':
      return 'has a shape that is not allowed here';
    default:
      return e.message ?? 'is invalid';
  }
}

/** Capitalise and end with a full stop (the predicate style's finish). */
export function sentence(s: string): string {
  const t = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?]$/.test(t) ? t : t + '.';
}
