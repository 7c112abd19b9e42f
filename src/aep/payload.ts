/**
 * Compiled AEP validators: the envelope and each registered type's payload schema (compiled
 * lazily, once per process), and the capture annotation trees. AEP-0001 §5; AEP-0002 §5.
 */
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../core/ajv.ts';
import { buildCaptureTree, type CaptureNode } from './capture.ts';
import { loadAepSchemas, type AepRegistryType } from './schemas.ts';

const ajv = createAjv();
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
