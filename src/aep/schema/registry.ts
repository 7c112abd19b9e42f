/**
 * Loader of our AEP 0.1 schemas and type registry (`schemas/aep/`); validation uses the generated validators, not
 * these.
 */
import { readFileSync } from 'node:fs';
import { packageUrl } from '../../core/paths.ts';

/** Registry status of a type (AEP-0002 §1, §4, §6). `deprecated` is reserved by policy and unused in 0.1. */
export type AepTypeStatus = 'mandatory' | 'optional' | 'reserved';

/** Registry scope of a type (AEP-0002 §6; AEP-0001 §5.2; AEP-0004 §2.2). */
export type AepTypeScope = 'session' | 'agent' | 'command';

/** Capture level (AEP-0001 §8.2), ordered `none < metadata < redacted < full`. */
export type AepCaptureLevel = 'none' | 'metadata' | 'redacted' | 'full';

/** Event severity (AEP-0001 §8.1), ordered `debug < info < notice < warning < error < critical`. */
export type AepSeverity = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical';

/** One registered core type (a row of `schemas/aep/registry.json` `types`). */
export interface AepRegistryType {
  type: string;
  status: AepTypeStatus;
  scope: AepTypeScope;
  /** File name under `schemas/aep/types/`, or `null` when the payload is deferred (the reserved `message.*`). */
  schema: string | null;
  spec: string;
  /** `resource.*`, `assessment.*` (AEP-0002 §4.2) and the control profile (AEP-0004) are experimental in 0.1. */
  experimental: boolean;
  /** Foreign-emitter session event (AEP-0001 §5.2): carries `session`, MUST omit `seq`. */
  foreignEmitter: boolean;
  summary: string;
}

/** One type category (AEP-0002 §3); `x` is the vendor namespace with scope `any`. */
export interface AepCategory {
  name: string;
  scope: 'session' | 'agent' | 'any';
  summary: string;
}

/** The whole registry file, `schemas/aep/registry.json`. */
export interface AepRegistry {
  aep: string;
  /** The closed category set (AEP-0002 §3). */
  categories: { spec: string; list: AepCategory[] };
  /** Capture levels in rank order and the default (AEP-0001 §8.2). */
  capture: { spec: string; order: AepCaptureLevel[]; default: AepCaptureLevel };
  /** Severities in rank order and the default (AEP-0001 §8.1). */
  severity: { spec: string; order: AepSeverity[]; default: AepSeverity };
  /** The `control.rejected.reason` enum (AEP-0004 §3). */
  nackReasons: { spec: string; reasons: string[] };
  types: AepRegistryType[];
}

/** What {@link loadAepSchemas} returns. All objects are deep-frozen and shared between calls. */
export interface AepSchemas {
  /** The envelope schema (`$id` `https://agent-conformance.dev/schemas/aep/envelope.schema.json`). */
  envelope: object;
  registry: AepRegistry;
  /** `undefined` for an unregistered type (vendor `x.*`, unknown) or one without a payload schema (`message.*`). */
  payload(type: string): object | undefined;
}

/** `$id` prefix shared by our AEP schemas; a payload schema's `$id` is `<base>types/<type>.schema.json`. */
export const AEP_SCHEMA_BASE_ID = 'https://agent-conformance.dev/schemas/aep/';

const SCHEMA_DIR = packageUrl('schemas/aep/');

let cached: AepSchemas | undefined;
let cachedRegistry: AepRegistry | undefined;

/** The type registry alone, read once and frozen. @throws Error when missing or malformed (a packaging defect). */
export function loadAepRegistry(): AepRegistry {
  return (cachedRegistry ??= deepFreeze(checkRegistry(readJson('registry.json'))));
}

/** Envelope, registry and payload schemas, read once and frozen. @throws Error when a file is missing or malformed. */
export function loadAepSchemas(): AepSchemas {
  if (cached) return cached;
  const envelope = readJson('envelope.schema.json') as Record<string, unknown>;
  const registry = loadAepRegistry();
  const payloads = new Map<string, object>();
  for (const row of registry.types) {
    if (row.schema === null) continue;
    const schema = readJson(`types/${row.schema}`) as Record<string, unknown>;
    const expectedId = `${AEP_SCHEMA_BASE_ID}types/${row.type}.schema.json`;
    if (schema.$id !== expectedId) {
      throw new Error(`schemas/aep/types/${row.schema}: $id is ${JSON.stringify(schema.$id)}, expected ${expectedId}`);
    }
    payloads.set(row.type, deepFreeze(schema));
  }
  cached = Object.freeze({
    envelope: deepFreeze(envelope),
    registry,
    payload: (type: string) => payloads.get(type),
  });
  return cached;
}

function readJson(rel: string): unknown {
  const url = new URL(rel, SCHEMA_DIR);
  let text: string;
  try {
    text = readFileSync(url, 'utf8');
  } catch (e) {
    throw new Error(`cannot read AEP schema file schemas/aep/${rel}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`schemas/aep/${rel} is not valid JSON: ${(e as Error).message}`);
  }
}

const STATUSES: readonly string[] = ['mandatory', 'optional', 'reserved'];
const SCOPES: readonly string[] = ['session', 'agent', 'command'];

/** Shape-check the registry file enough that the typed view is honest. */
function checkRegistry(v: unknown): AepRegistry {
  const fail = (what: string): never => {
    throw new Error(`schemas/aep/registry.json: ${what}`);
  };
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('not an object');
  const r = v as Record<string, unknown>;
  if (!Array.isArray(r.types)) fail('"types" is not an array');
  const seen = new Set<string>();
  for (const [i, row] of (r.types as unknown[]).entries()) {
    const t = row as Partial<AepRegistryType> | null;
    if (typeof t !== 'object' || t === null) fail(`types[${i}] is not an object`);
    const x = t as Partial<AepRegistryType>;
    if (typeof x.type !== 'string' || x.type === '') fail(`types[${i}].type is not a non-empty string`);
    if (seen.has(x.type as string)) fail(`types[${i}]: duplicate type ${x.type}`);
    seen.add(x.type as string);
    if (!STATUSES.includes(x.status as string)) fail(`types[${i}].status is invalid`);
    if (!SCOPES.includes(x.scope as string)) fail(`types[${i}].scope is invalid`);
    if (x.schema !== null && typeof x.schema !== 'string') fail(`types[${i}].schema is neither a file name nor null`);
    if (typeof x.spec !== 'string') fail(`types[${i}].spec is not a string`);
  }
  for (const k of ['categories', 'capture', 'severity', 'nackReasons'] as const) {
    if (typeof r[k] !== 'object' || r[k] === null) fail(`"${k}" is missing`);
  }
  return r as unknown as AepRegistry;
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const child of Object.values(v as object)) deepFreeze(child);
  }
  return v;
}
