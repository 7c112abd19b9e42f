/**
 * Compiled AEP validators: the envelope and each registered type's payload schema (compiled
 * lazily, once per process, through the schema stage's ajv factory), their findings through
 * the schema stage's mapper, and the capture annotation trees. AEP-0001 §5; AEP-0002 §5.
 */
import { createAjv, type Ajv2020, type ValidateFunction } from '../core/schema/ajv.ts';
import { prepareSchemas, type SchemaIndex } from '../core/schema/annotations.ts';
import { mapSchemaErrors, type SchemaFinding, type Wording } from '../core/schema/findings.ts';
import { buildCaptureTree, type CaptureNode } from './capture.ts';
import { aepWording, ENVELOPE_RULES } from './rules/envelope.ts';
import { AEP_SCHEMA_BASE_ID, loadAepSchemas, type AepRegistryType } from './schemas.ts';

const schemas = loadAepSchemas();
const registry = new Map<string, AepRegistryType>(schemas.registry.types.map((t) => [t.type, t]));
const EVENT_WORDING = aepWording('event');

/** One schema, as the verdict and the diagnostic validators see it (prepared on first use). */
interface Compiled {
  /** First error only: the hot path. */
  verdict: ValidateFunction;
  /** All errors with their schema nodes, compiled on the first failure. */
  diagnostic(): ValidateFunction;
}

let verdictAjv: Ajv2020 | undefined;
let diagnosticAjv: Ajv2020 | undefined;
const index: SchemaIndex = new WeakMap();

/** Compile a loaded (frozen) schema for verdicts; a prepared copy for diagnostics on first use. */
function compile(schema: object): Compiled {
  const verdict = (verdictAjv ??= createAjv({ diagnostic: false })).compile(schema);
  let diag: ValidateFunction | undefined;
  const diagnostic = (): ValidateFunction => {
    if (!diag) {
      const doc = structuredClone(schema) as Record<string, unknown>;
      prepareSchemas(new Map([[String(doc.$id), doc]]), AEP_SCHEMA_BASE_ID, index);
      diag = (diagnosticAjv ??= createAjv({ diagnostic: true })).compile(doc);
    }
    return diag;
  };
  return { verdict, diagnostic };
}

let envelope: Compiled | undefined;
const payloads = new Map<string, Compiled | null>();
const trees = new Map<string, CaptureNode | null>();

function payloadCompiled(type: string): Compiled | undefined {
  let c = payloads.get(type);
  if (c === undefined) {
    const s = schemas.payload(type);
    c = s ? compile(s) : null;
    payloads.set(type, c);
  }
  return c ?? undefined;
}

/** The envelope verdict (schemas/aep/envelope.schema.json): true when `event` is a valid envelope. */
export function envelopeValidator(): ValidateFunction {
  return (envelope ??= compile(schemas.envelope)).verdict;
}

/** The envelope findings of an event the verdict rejected: rule ids from the schema's `x-rule` annotations. */
export function envelopeFindings(event: Record<string, unknown>): SchemaFinding[] {
  const v = (envelope ??= compile(schemas.envelope)).diagnostic();
  v(event);
  return mapSchemaErrors(v.errors, event, { index, wording: EVENT_WORDING, fallbackRule: ENVELOPE_RULES.attributeType.id });
}

/** The payload verdict of a registered type, or `undefined` (vendor, unknown, schema-less). */
export function payloadValidator(type: string): ValidateFunction | undefined {
  return payloadCompiled(type)?.verdict;
}

/**
 * The payload findings of `data` of a registered `type` (empty when valid or schema-less).
 * Pointers and sentences name `base` + the location in `data` (`/data/...` in an event);
 * `wording` defaults to the event's. Rules: `aep/payload-schema`, or an annotation's.
 */
export function payloadFindings(type: string, data: unknown, opts: { base?: string; wording?: Wording } = {}): SchemaFinding[] {
  const c = payloadCompiled(type);
  if (!c || c.verdict(data)) return [];
  const v = c.diagnostic();
  v(data);
  return mapSchemaErrors(v.errors, data, { index, wording: opts.wording ?? EVENT_WORDING, fallbackRule: ENVELOPE_RULES.payload.id, base: opts.base ?? '' });
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
