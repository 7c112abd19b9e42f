/**
 * Compiled AEP validators: the envelope and each registered type's payload schema (compiled
 * lazily, once per process), and the capture annotation trees. AEP-0001 §5; AEP-0002 §5.
 */
import type { ValidateFunction } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { createAjv } from '../core/ajv.ts';
import { buildCaptureTree, type CaptureNode } from './capture.ts';
import { loadAepSchemas, type AepRegistryType } from './schemas.ts';

type Predicate = (s: string) => boolean;

/** Memoise a pure string predicate; the table is cleared when it holds `max` entries. */
function memo(fn: Predicate, max = 4096): Predicate {
  const seen = new Map<string, boolean>();
  return (s) => {
    let r = seen.get(s);
    if (r === undefined) {
      if (seen.size >= max) seen.clear();
      seen.set(s, (r = fn(s)));
    }
    return r;
  };
}

const ajv = createAjv();
// Hot formats, same verdicts as ajv-formats (full mode): `source` URIs repeat across a
// session's events, so their verdict is remembered; `date-time` is ajv-formats' own
// composition (split at T/space, full-date, time with offset) with the full-date verdict
// remembered (a stream has few distinct days). A property test compares them with ajv-formats.
const formats = fullFormats as unknown as Record<'uri' | 'date' | 'time' | 'date-time', Predicate | { validate: Predicate; compare: unknown }>;
const fn = (f: Predicate | { validate: Predicate }): Predicate => (typeof f === 'function' ? f : f.validate);
const uri = memo(fn(formats.uri));
const fullDate = memo(fn(formats.date), 1024);
const time = fn(formats.time);
const DATE_TIME_SEPARATOR = /t|\s/i;
ajv.addFormat('uri', uri);
ajv.addFormat('date-time', {
  validate: (s: string) => {
    const parts = s.split(DATE_TIME_SEPARATOR);
    return parts.length === 2 && fullDate(parts[0]) && time(parts[1]);
  },
  compare: (formats['date-time'] as { compare: (a: string, b: string) => number | undefined }).compare,
});
const schemas = loadAepSchemas();
let envelopeFn: ValidateFunction | undefined;
const payloadFns = new Map<string, ValidateFunction | null>();
const trees = new Map<string, CaptureNode | null>();
const registry = new Map<string, AepRegistryType>(schemas.registry.types.map((t) => [t.type, t]));

/** The compiled envelope validator (schemas/aep/envelope.schema.json). */
export function envelopeValidator(): ValidateFunction {
  return (envelopeFn ??= ajv.compile(schemas.envelope));
}

/** The compiled payload validator of a registered type, or `undefined` (vendor, unknown, schema-less). */
export function payloadValidator(type: string): ValidateFunction | undefined {
  let fn = payloadFns.get(type);
  if (fn === undefined) {
    const s = schemas.payload(type);
    fn = s ? ajv.compile(s) : null;
    payloadFns.set(type, fn);
  }
  return fn ?? undefined;
}

/** The capture annotation tree of a registered type's payload, or `undefined`. */
export function captureTreeFor(type: string): CaptureNode | undefined {
  let t = trees.get(type);
  if (t === undefined) {
    const s = schemas.payload(type);
    t = s ? buildCaptureTree(s as Record<string, unknown>) : null;
    trees.set(type, t);
  }
  return t ?? undefined;
}

/** The registry row of a core type, or `undefined` when the type is not registered. */
export function registryEntry(type: string): AepRegistryType | undefined {
  return registry.get(type);
}

/** Every registered type name (coverage statistics). */
export const KNOWN_AEP_TYPES: readonly string[] = schemas.registry.types.map((t) => t.type);
