/**
 * The generated AEP validators, their findings through the schema stage's mapper, and the capture trees; loaded on
 * first use.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { mapSchemaErrors, type SchemaFinding, type Wording } from '../../core/schema/findings.ts';
import { loadGeneratedValidators, type GeneratedValidators } from '../../core/schema/generated.ts';
import { buildCaptureTree, type CaptureNode } from '../capture.ts';
import { ENVELOPE_RULES } from './rules.ts';
import { aepWording } from './wording.ts';
import { AEP_SCHEMA_BASE_ID, loadAepRegistry, type AepCaptureLevel, type AepRegistryType } from './registry.ts';

// the registry loads on its first use, not with the module (`--version` and `--help` need none)
let registry: Map<string, AepRegistryType> | undefined;
let knownTypes: readonly string[] | undefined;
const EVENT_WORDING = aepWording('event');
let generated: { v: GeneratedValidators; byType: Map<string, object> } | undefined;

function load(): NonNullable<typeof generated> {
  if (!generated) {
    const v = loadGeneratedValidators('aep', AEP_SCHEMA_BASE_ID);
    const byType = new Map<string, object>();
    for (const d of v.docs) {
      const m = /types\/(.+)\.schema\.json$/.exec(String(d.$id));
      if (m) byType.set(m[1], d);
    }
    generated = { v, byType };
  }
  return generated;
}

/** True once the generated validators are loaded (start-up tests: `--version` loads none). */
export function aepValidatorsLoaded(): boolean {
  return generated !== undefined;
}

interface Compiled {
  /** First error only: the hot path. */
  verdict: ValidateFunction;
  /** All errors with their schema nodes, loaded on the first failure. */
  diagnostic(): ValidateFunction;
}

/** The generated validators of `key` (`envelope` or a registered type), or null when none was generated. */
function compile(key: string): Compiled | null {
  const g = load().v;
  const v = g.verdict(key);
  if (!v) return null;
  return { verdict: v, diagnostic: () => g.diagnostic(key)! };
}

let envelope: Compiled | undefined;
const payloads = new Map<string, Compiled | null>();
const trees = new Map<string, CaptureNode | null>();

function payloadCompiled(type: string): Compiled | undefined {
  let c = payloads.get(type);
  if (c === undefined) {
    c = load().byType.has(type) ? compile(type) : null;
    payloads.set(type, c);
  }
  return c ?? undefined;
}

/** The envelope verdict (schemas/aep/envelope.schema.json): true when `event` is a valid envelope. */
export function envelopeValidator(): ValidateFunction {
  return (envelope ??= compile('envelope')!).verdict;
}

/** The envelope findings of an event the verdict rejected: rule ids from the schema's `x-rule` annotations. */
export function envelopeFindings(event: Record<string, unknown>): SchemaFinding[] {
  const v = (envelope ??= compile('envelope')!).diagnostic();
  v(event);
  return mapSchemaErrors(v.errors, event, {
    index: load().v.index,
    wording: EVENT_WORDING,
    fallbackRule: ENVELOPE_RULES.attributeType.id,
  });
}

/** The payload verdict of a registered type, or `undefined` (vendor, unknown, schema-less). */
export function payloadValidator(type: string): ValidateFunction | undefined {
  return payloadCompiled(type)?.verdict;
}

/** Payload findings of `data` of `type`, pointers under `base`. Rules: `aep/payload-schema` or an annotation's. */
export function payloadFindings(
  type: string,
  data: unknown,
  opts: { base?: string; wording?: Wording } = {},
): SchemaFinding[] {
  const c = payloadCompiled(type);
  if (!c || c.verdict(data)) return [];
  const v = c.diagnostic();
  v(data);
  return mapSchemaErrors(v.errors, data, {
    index: load().v.index,
    wording: opts.wording ?? EVENT_WORDING,
    fallbackRule: ENVELOPE_RULES.payload.id,
    base: opts.base ?? '',
  });
}

/** The capture annotation tree of a registered type's payload, or `undefined`. */
export function captureTreeFor(type: string): CaptureNode | undefined {
  let t = trees.get(type);
  if (t === undefined) {
    const s = load().byType.get(type);
    t = s ? buildCaptureTree(s as Record<string, unknown>) : null;
    trees.set(type, t);
  }
  return t ?? undefined;
}

/** A member a registered type's payload REQUIRES, with the capture level it is annotated with (AEP-0002 §5.1). */
export interface RequiredMember {
  name: string;
  level: AepCaptureLevel;
  /** The finding an empty payload gets for this member (rule, pointer under `/data`, sentence). */
  finding: SchemaFinding;
}
const requiredCache = new Map<string, readonly RequiredMember[]>();

/** The top-level members `type`'s payload requires, each with its `x-aep-capture` level. */
export function requiredMembers(type: string): readonly RequiredMember[] {
  let r = requiredCache.get(type);
  if (r === undefined) {
    const pv = payloadValidator(type);
    const found: RequiredMember[] = [];
    r = found;
    if (pv && !pv({})) {
      const tree = captureTreeFor(type);
      for (const f of payloadFindings(type, {}, { base: '/data' })) {
        const m = /^\/data\/([^/]+)$/.exec(f.pointer);
        if (!m) continue;
        const name = m[1]!.replace(/~1/g, '/').replace(/~0/g, '~');
        found.push({ name, level: tree?.properties?.get(name)?.level ?? 'metadata', finding: f });
      }
    }
    requiredCache.set(type, r);
  }
  return r;
}

/** The registry row of a core type, or `undefined` when the type is not registered. */
export function registryEntry(type: string): AepRegistryType | undefined {
  return (registry ??= new Map(loadAepRegistry().types.map((t) => [t.type, t]))).get(type);
}

/** Every registered type name (coverage statistics), read from the registry on first use. */
export function knownAepTypes(): readonly string[] {
  return (knownTypes ??= Object.freeze(loadAepRegistry().types.map((t) => t.type)));
}
