/**
 * The AHP schema registry (`schemas/ahp/`, the pinned MCP extraction), generated at build time: verdict validators load
 * on first use, diagnostic ones on the first failure.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { SchemaIndex } from '../../core/schema/annotations.ts';
import { loadGeneratedValidators } from '../../core/schema/generated.ts';
import { isObj } from '../../core/value.ts';

/** `$id` base of our AHP draft schemas. */
export const AHP_SCHEMA_BASE = 'https://agent-conformance.dev/schemas/ahp/draft/';

/** Our schema files, in load order (every one is registered before anything is compiled). */
export const AHP_SCHEMA_FILES = [
  'common.schema.json',
  'content.schema.json',
  'interaction-events.schema.json',
  'execution-events.schema.json',
  'task-workspace-events.schema.json',
  'events.schema.json',
  'effects.schema.json',
  'capabilities.schema.json',
  'messages.schema.json',
  'wire.schema.json',
  'registration.schema.json',
] as const;

/** The `$id` given to the pinned MCP extraction when its document has none. */
export const MCP_DEFAULT_ID = 'urn:agent-conformance:mcp-elicitation';

/** The compiled registry. */
export interface AhpSchemaRegistry {
  /** Schema nodes of the diagnostic validators' (prepared) documents, for the mapper (`mapSchemaErrors`). */
  readonly index: SchemaIndex;
  docs: ReadonlyMap<string, Record<string, unknown>>;
  /** A fast verdict for a `$ref` such as `messages.schema.json#/$defs/interceptRequest`. */
  check(ref: string): (value: unknown) => boolean;
  /** The diagnostic validator (all errors, verbose) for a `$ref`. */
  validator(ref: string): ValidateFunction;
  mcp: { id: string; doc: Record<string, unknown> };
  /** A fast verdict for a `$defs` entry of the MCP extraction, or `undefined` when it has none. */
  mcpCheck(def: string): ((value: unknown) => boolean) | undefined;
  /** The diagnostic validator for a `$defs` entry of the MCP extraction, or `undefined` when it has none. */
  mcpValidator(def: string): ValidateFunction | undefined;
}

let registry: AhpSchemaRegistry | undefined;

/** True once the generated validators are loaded (start-up tests: `--version` loads none). */
export function ahpValidatorsLoaded(): boolean {
  return registry !== undefined;
}

/** The process-wide registry. @throws Error for a `$ref` without a generated validator (a build defect). */
export function ahpSchemas(): AhpSchemaRegistry {
  if (registry) return registry;
  const generated = loadGeneratedValidators('ahp', AHP_SCHEMA_BASE);
  const DOCS = generated.docs;
  const docs = new Map<string, Record<string, unknown>>(
    AHP_SCHEMA_FILES.map((file, i) => [file, DOCS[i] as Record<string, unknown>]),
  );
  const mcpDoc = DOCS[AHP_SCHEMA_FILES.length] as Record<string, unknown>;
  const mcpId = mcpDoc.$id as string;
  const lookup = (v: ValidateFunction | undefined, ref: string): ValidateFunction => {
    if (!v) throw new Error(`no AHP schema for ${ref}`);
    return v;
  };
  const defs = isObj(mcpDoc.$defs) ? mcpDoc.$defs : {};
  const hasDef = (def: string) => Object.hasOwn(defs, def);
  // one verdict function per ref, made on first use: the hot paths ask for it per message; a generated verdict returns
  // a boolean (no schema of ours is async), so it is handed out as it is, not wrapped in one more call
  const checks = new Map<string, (value: unknown) => boolean>();
  const mcpChecks = new Map<string, ((value: unknown) => boolean) | undefined>();
  registry = {
    get index() {
      return generated.index;
    },
    docs,
    check: (ref: string) => {
      let c = checks.get(ref);
      if (!c) {
        c = lookup(generated.verdict(ref), ref) as (value: unknown) => boolean;
        checks.set(ref, c);
      }
      return c;
    },
    validator: (ref: string) => lookup(generated.diagnostic(ref), ref),
    mcp: { id: mcpId, doc: mcpDoc },
    mcpCheck: (def: string) => {
      if (mcpChecks.has(def)) return mcpChecks.get(def);
      let c: ((value: unknown) => boolean) | undefined;
      if (hasDef(def)) {
        const ref = `${mcpId}#/$defs/${def}`;
        c = lookup(generated.verdict(ref), ref) as (value: unknown) => boolean;
      }
      mcpChecks.set(def, c);
      return c;
    },
    mcpValidator: (def: string) =>
      hasDef(def) ? lookup(generated.diagnostic(`${mcpId}#/$defs/${def}`), def) : undefined,
  };
  return registry;
}

function enumAt(doc: Record<string, unknown> | undefined, path: string[]): string[] {
  let cur: unknown = doc;
  for (const k of path) cur = isObj(cur) ? cur[k] : undefined;
  return Array.isArray(cur) ? cur.filter((x): x is string => typeof x === 'string') : [];
}

/** The 32 event types of the draft catalogue, as declared by `events.schema.json`. */
export function ahpEventTypes(): readonly string[] {
  return enumAt(ahpSchemas().docs.get('events.schema.json'), ['$defs', 'event', 'properties', 'type', 'enum']);
}

/** The 19 event types that may be carried by `hooks/intercept`, as declared by `events.schema.json`. */
export function ahpInterceptableEventTypes(): readonly string[] {
  return enumAt(ahpSchemas().docs.get('events.schema.json'), [
    '$defs',
    'interceptableEvent',
    'properties',
    'type',
    'enum',
  ]);
}
