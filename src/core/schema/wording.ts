/**
 * The schema stage's generic wording per ajv keyword, as template tables in two styles that name what was found, never
 * the value: located (AEP, `"/seq" must be integer, found string.`) and phrase (AHP, `must be a string, found an
 * integer`); and the choice of template and arguments for one error (run at check time; rendering is the reporters').
 */
import { describeValue } from '../finding.ts';
import type { MessageTemplates } from '../message.ts';
import { capitalise, type MessageContext, type SchemaArgs, type SchemaMessage } from './findings.ts';
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
  'web-url': {
    located: 'an http(s) URL with a host ("//" and a host after the scheme, a port of at most 65535)',
    phrase: 'an http(s) URL with a host ("//" and a host after the scheme, a port of at most 65535)',
    answer: 'an http(s) URL with a host',
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

/** Templates of `format-<name>` (and `format-date-time.why`, what fails in a date-time) from one style's words. */
function formatTemplates(style: 'located' | 'phrase', wrap: (words: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, w] of Object.entries(FORMAT_WORDS)) out[`format-${name}`] = wrap(w[style]);
  out['format-date-time.why'] = wrap(`${FORMAT_WORDS['date-time'][style]}: {why}`);
  return out;
}

const LIMITS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;

// `@At` / `@at` stand for the place: `"{path}"`, or `The {label}` / `the {label}` for the whole value (`.root` ids)
const LOCATED_AT: Readonly<Record<string, string>> = {
  required: 'Missing required member "{member}" in @at.',
  type: '@At must be {expected}, found {found}.',
  const: '@At must be {allowed}.',
  'const-found': '@At must be {allowed}, found {found}.',
  enum: '@At must be one of {allowed}.',
  pattern: '@At does not match the required pattern {pattern}.',
  format: '@At is not a valid {format}.',
  ...formatTemplates('located', (w) => `@At is not ${w}.`),
  ...Object.fromEntries(LIMITS.map((k) => [k, '@At must be {comparison} {limit}.'])),
  'minLength-empty': '@At must not be empty.',
  minLength: '@At must be at least {limit} character{limit:s} (code points) long, found {found}.',
  maxLength: '@At must be at most {limit} character{limit:s} (code points) long, found {found}.',
  minItems: '@At must have at least {limit} item{limit:s}.',
  maxItems: '@At must have at most {limit} item{limit:s}.',
  minProperties: '@At must have at least {limit} member{limit:s}.',
  additionalProperties: '@At has a member "{member}" that is not allowed here.',
  unevaluatedProperties: '@At has a member "{member}" that is not allowed here.',
  propertyNames: '@At has a member name "{member}" that is not allowed.',
  'false schema': '@At must not be present here.',
  uniqueItems: '@At must not repeat items (items {j} and {i} are equal).',
  oneOf: '@At must match exactly one of its allowed shapes.',
  anyOf: '@At matches none of its allowed shapes.',
  not: '@At has a shape that is not allowed here.',
  dependentRequired: '@At must have "{member}" when it has "{property}".',
  multipleOf: '@At must be a multiple of {multipleOf}.',
  ajv: '@At {ajv}.',
};

/** `table` with the place put in: each id at a path, and `<id>.root` for the whole value. */
function placeTemplates(table: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, t] of Object.entries(table)) {
    out[id] = t.replace(/@At|@at/g, '"{path}"');
    if (t.includes('@')) out[`${id}.root`] = t.replace('@At', 'The {label}').replace('@at', 'the {label}');
  }
  return out;
}

/** The located sentences (AEP), by message id. */
export const LOCATED_TEMPLATES: MessageTemplates = placeTemplates(LOCATED_AT);

/** The predicate phrases (AHP, MCP), by message id: lower case, no final stop. */
export const PHRASE_TEMPLATES: MessageTemplates = {
  required: '`{member}` is required here',
  additionalProperties: '`{member}` is not allowed here (closed object)',
  type: 'must be {expected}, found {found}',
  const: 'must be {allowed}',
  enum: 'must be one of {allowed}',
  pattern: 'does not have the required form (found {found})',
  format: 'must be a valid {format}',
  ...formatTemplates('phrase', (w) => `must be ${w}`),
  ...Object.fromEntries(LIMITS.map((k) => [k, 'must be {comparison} {limit}'])),
  'minLength-empty': 'must not be empty',
  minLength: 'must be at least {limit} character{limit:s} (code points) long (found {found})',
  maxLength: 'must be at most {limit} character{limit:s} (code points) long (found {found})',
  'minItems-empty': 'must not be empty',
  minItems: 'must have at least {limit} item{limit:s} (found {found})',
  'maxItems-zero': 'must be empty (found {found})',
  maxItems: 'must have at most {limit} item{limit:s} (found {found})',
  minProperties: 'must have at least {limit} member{limit:s}',
  uniqueItems: 'must not repeat items (items {j} and {i} are equal)',
  contains: 'must contain a matching item',
  propertyNames: 'has a member name that is not allowed',
  'false schema': 'is not allowed here',
  'oneOf-many': 'matches more than one of its allowed shapes',
  oneOf: 'matches none of its allowed shapes',
  anyOf: 'matches none of its allowed shapes',
  not: 'has a shape that is not allowed here',
  ajv: '{ajv}',
};

/** The templates of a fixed `x-message` sentence of the schema: as it is, or with what fails in a date-time. */
export const LITERAL_TEMPLATES: MessageTemplates = { 'x-message': '{text}', 'x-message.why': '{text}: {why}.' };

/** `table` as sentences (capitalised, with a full stop; no template ends in a placeholder that could end one). */
export function sentenceTemplates(table: MessageTemplates): Record<string, string> {
  return Object.fromEntries(Object.entries(table).map(([id, t]) => [id, t === '{ajv}' ? t : `${capitalise(t)}.`]));
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

/** A message of `id` with the error's keyword among its arguments. */
const msg = (c: MessageContext, messageId: string, args: SchemaArgs = {}): SchemaMessage => ({
  messageId,
  args: { keyword: c.keyword, ...args },
});

/** The format template of `format`, with what fails in a date-time when the value says. */
function formatMessage(c: MessageContext, format: unknown, place: SchemaArgs): SchemaMessage {
  const name = String(format);
  if (!Object.hasOwn(FORMAT_WORDS, name)) return msg(c, 'format', { ...place, format: name });
  const why = name === 'date-time' && typeof c.value === 'string' ? explainDateTime(c.value) : undefined;
  return why
    ? msg(c, 'format-date-time.why', { ...place, format: name, why })
    : msg(c, `format-${name}`, { ...place, format: name });
}

/** The located template and arguments of one error (`label` names the whole value: `event`, `payload`). */
export function locatedMessage(c: MessageContext, label = 'value'): SchemaMessage {
  const root = c.path === '';
  const place: SchemaArgs = root ? { label } : { path: c.path };
  const at = (id: string, args: SchemaArgs = {}) => msg(c, root ? `${id}.root` : id, { ...place, ...args });
  const p = c.error.params as Record<string, unknown>;
  const found = () => describeValue(c.value);
  switch (c.keyword) {
    case 'required':
      return at('required', { member: String(p.missingProperty) });
    case 'type':
      return at('type', { expected: String(p.type).replace(',', ' or '), found: found() });
    case 'const':
      return at('const', { allowed: lit(p.allowedValue) });
    case 'enum':
      return at('enum', { allowed: (p.allowedValues as unknown[]).map(lit).join(', ') });
    case 'pattern':
      return at('pattern', { pattern: String(p.pattern) });
    case 'format': {
      const m = formatMessage(c, p.format, place);
      return root ? { ...m, messageId: `${m.messageId}.root` } : m;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return at(c.keyword, { comparison: String(p.comparison), limit: String(p.limit) });
    case 'minLength':
      return Number(p.limit) === 1
        ? at('minLength-empty')
        : at('minLength', { limit: String(p.limit), found: found() });
    case 'maxLength':
      return at('maxLength', { limit: String(p.limit), found: found() });
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
      return at(c.keyword, { limit: String(p.limit) });
    case 'additionalProperties':
      return at('additionalProperties', { member: String(p.additionalProperty) });
    case 'unevaluatedProperties':
      return at('unevaluatedProperties', { member: String(p.unevaluatedProperty) });
    case 'propertyNames':
      return at('propertyNames', { member: String(p.propertyName) });
    case 'uniqueItems':
      return at('uniqueItems', { j: String(p.j), i: String(p.i) });
    case 'false schema':
    case 'oneOf':
    case 'anyOf':
    case 'not':
      return at(c.keyword);
    case 'dependentRequired':
      return at('dependentRequired', { member: String(p.missingProperty), property: String(p.property) });
    case 'multipleOf':
      return at('multipleOf', { multipleOf: String(p.multipleOf) });
    default:
      return at('ajv', { ajv: c.error.message ?? 'is invalid' });
  }
}

/** The phrase template and arguments of one error, for the location its finding points at. */
export function phraseMessage(c: MessageContext): SchemaMessage {
  const p = c.error.params as Record<string, unknown>;
  const found = () => describeValue(c.value);
  const limit = String(p.limit);
  switch (c.keyword) {
    case 'required':
      return msg(c, 'required', { member: String(p.missingProperty) });
    case 'additionalProperties':
      return msg(c, 'additionalProperties', { member: String(p.additionalProperty) });
    case 'type': {
      const types = (Array.isArray(p.type) ? p.type : String(p.type).split(',')).map(
        (t) => TYPE_NAMES[String(t)] ?? String(t),
      );
      return msg(c, 'type', { expected: types.join(' or '), found: found() });
    }
    case 'const':
      return msg(c, 'const', { allowed: lit(p.allowedValue) });
    case 'enum':
      return msg(c, 'enum', { allowed: (p.allowedValues as unknown[]).map(lit).join(', ') });
    case 'pattern':
      return msg(c, 'pattern', { found: found() });
    case 'format':
      return formatMessage(c, p.format, {});
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return msg(c, c.keyword, { comparison: String(p.comparison), limit });
    case 'minLength':
      return limit === '1' ? msg(c, 'minLength-empty') : msg(c, 'minLength', { limit, found: found() });
    case 'maxLength':
      return msg(c, 'maxLength', { limit, found: found() });
    case 'minItems':
      return limit === '1' ? msg(c, 'minItems-empty') : msg(c, 'minItems', { limit, found: found() });
    case 'maxItems':
      return limit === '0'
        ? msg(c, 'maxItems-zero', { found: found() })
        : msg(c, 'maxItems', { limit, found: found() });
    case 'minProperties':
      return msg(c, 'minProperties', { limit });
    case 'uniqueItems':
      return msg(c, 'uniqueItems', { j: String(p.j), i: String(p.i) });
    case 'oneOf':
      return msg(c, p.passingSchemas ? 'oneOf-many' : 'oneOf');
    case 'contains':
    case 'propertyNames':
    case 'false schema':
    case 'anyOf':
    case 'not':
      return msg(c, c.keyword);
    default:
      return msg(c, 'ajv', { ajv: c.error.message ?? 'is invalid' });
  }
}
