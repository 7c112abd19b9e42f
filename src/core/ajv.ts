/**
 * The shared ajv set-up (JSON Schema 2020-12 + ajv-formats) and the mapping of ajv errors to
 * plain sentences that never echo instance values.
 */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describeValue } from './finding.ts';
import { getAt } from './pointer.ts';

// ajv-formats is CommonJS; under NodeNext its default import is the module namespace.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020;

/** Our annotation keywords, accepted (and ignored for validation) by every ajv instance. */
export const ANNOTATION_KEYWORDS = ['x-aep-capture', 'x-rule', 'x-spec'] as const;

/**
 * A new ajv instance: draft 2020-12, all errors, formats (RFC 3339 `date-time`, `uri`,
 * `email`, ...), our annotation keywords registered. Compile once per process and reuse.
 */
export function createAjv(opts: { allErrors?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: opts.allErrors ?? true, validateFormats: true });
  addFormats(ajv);
  for (const k of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword: k, schemaType: ['string', 'object', 'array', 'boolean'] });
  return ajv;
}

const FORMAT_NAMES: Record<string, string> = {
  'date-time': 'an RFC 3339 date-time with a time-zone offset (e.g. 2025-01-01T12:00:00Z)',
  uri: 'an absolute URI with a scheme',
  'uri-reference': 'a URI reference',
  email: 'an email address',
  date: 'an RFC 3339 full-date',
  uuid: 'a UUID',
};

/** Format a JSON value from a schema (const/enum) for a message. */
function lit(v: unknown): string {
  return JSON.stringify(v);
}

/**
 * One plain sentence for an ajv error. Names the member, what was expected, and the kind of
 * value found (type and length), never the value itself.
 * @param instance the validated value (to describe what was found).
 */
export function ajvMessage(e: ErrorObject, instance: unknown, label = 'value'): string {
  const at = e.instancePath === '' ? 'the ' + label : `"${e.instancePath}"`;
  const found = () => describeValue(getAt(instance, e.instancePath));
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
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
      return `${cap(at)} is not ${FORMAT_NAMES[String(p.format)] ?? `a valid ${String(p.format)}`}.`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${cap(at)} must be ${String(p.comparison)} ${String(p.limit)}.`;
    case 'minLength':
      return Number(p.limit) === 1 ? `${cap(at)} must not be empty.` : `${cap(at)} must be at least ${String(p.limit)} characters long.`;
    case 'maxLength':
      return `${cap(at)} must be at most ${String(p.limit)} characters long.`;
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

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Drop ajv's wrapper errors that only repeat a more specific one (`if` failures; `anyOf` /
 * `oneOf` whose branches already reported at a deeper path), keeping every independent
 * problem.
 */
export function significantErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  // `if` only says "then failed"; a propertyNames sub-error repeats the propertyNames error
  return errors.filter((e) => e.keyword !== 'if' && !e.schemaPath.includes('/propertyNames/'));
}

export type { ErrorObject };
