/**
 * The AHP draft schema registry: loads our schemas from `schemas/ahp/` (written from the AHP
 * draft prose) and the pinned MCP elicitation extraction from
 * `schemas/mcp/mcp-elicitation.schema.json`, prepares them for the schema stage's mapper
 * (`prepareSchemas` in src/core/schema/annotations.ts: rule attribution from `x-rule` /
 * `x-message` annotations at the failing location) and compiles them once per process with
 * the core ajv factory.
 */
import { readFileSync } from 'node:fs';
import { createAjv, type Ajv2020, type ValidateFunction } from '../core/schema/ajv.ts';
import { prepareSchemas, type SchemaIndex } from '../core/schema/annotations.ts';

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

const SCHEMA_DIR = new URL('../../schemas/ahp/', import.meta.url);
const MCP_SCHEMA_URL = new URL('../../schemas/mcp/mcp-elicitation.schema.json', import.meta.url);

/** The compiled registry. */
export interface AhpSchemaRegistry {
  /** Schema nodes of the diagnostic validators' (prepared) documents, for the mapper (`mapSchemaErrors`). */
  readonly index: SchemaIndex;
  /** Our loaded schema documents by file name (as written). */
  docs: ReadonlyMap<string, Record<string, unknown>>;
  /** A fast verdict for a `$ref` such as `messages.schema.json#/$defs/interceptRequest`. */
  check(ref: string): (value: unknown) => boolean;
  /** The diagnostic validator (all errors, verbose) for a `$ref`. */
  validator(ref: string): ValidateFunction;
  /** The MCP extraction document (as loaded) and its `$id`. */
  mcp: { id: string; doc: Record<string, unknown> };
  /** A fast verdict for a `$defs` entry of the MCP extraction, or `undefined` when it has none. */
  mcpCheck(def: string): ((value: unknown) => boolean) | undefined;
  /** The diagnostic validator for a `$defs` entry of the MCP extraction, or `undefined` when it has none. */
  mcpValidator(def: string): ValidateFunction | undefined;
}

let registry: AhpSchemaRegistry | undefined;

function readJson(url: URL): Record<string, unknown> {
  return JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The process-wide registry, built on first use. Two ajv instances share the loaded documents:
 * a fast one for verdicts (first error only) and, built on the first failure, a diagnostic one
 * (all errors, verbose).
 * @throws Error when a schema file is missing or unreadable (an installation problem), naming it.
 */
export function ahpSchemas(): AhpSchemaRegistry {
  if (registry) return registry;
  const docs = new Map<string, Record<string, unknown>>();
  const byId = new Map<string, Record<string, unknown>>();
  for (const file of AHP_SCHEMA_FILES) {
    const url = new URL(file, SCHEMA_DIR);
    let doc: Record<string, unknown>;
    try {
      doc = readJson(url);
    } catch (err) {
      throw new Error(`cannot load AHP schema ${file}: ${(err as Error).message}`);
    }
    docs.set(file, doc);
    byId.set(AHP_SCHEMA_BASE + file, doc);
  }
  let mcpDoc: Record<string, unknown>;
  try {
    mcpDoc = readJson(MCP_SCHEMA_URL);
  } catch (err) {
    throw new Error(`cannot load the pinned MCP elicitation extraction schemas/mcp/mcp-elicitation.schema.json: ${(err as Error).message}`);
  }
  const mcpId = typeof mcpDoc.$id === 'string' ? mcpDoc.$id : 'urn:agent-conformance:mcp-elicitation';
  if (typeof mcpDoc.$id !== 'string') mcpDoc.$id = mcpId;
  byId.set(mcpId, mcpDoc);
  // the verdict instance compiles the documents as written; the diagnostic one (built on the
  // first failure) a prepared copy, whose index the mapper reads
  let prepared: { docs: Map<string, Record<string, unknown>>; index: SchemaIndex } | undefined;
  const prepare = () => {
    if (!prepared) {
      const docs = new Map([...byId].map(([id, doc]) => [id, structuredClone(doc)]));
      prepared = { docs, index: prepareSchemas(docs, AHP_SCHEMA_BASE) };
    }
    return prepared;
  };

  const instance = (diagnostic: boolean) => {
    let ajv: Ajv2020 | undefined;
    const cache = new Map<string, ValidateFunction>();
    return (ref: string): ValidateFunction => {
      let v = cache.get(ref);
      if (!v) {
        if (!ajv) {
          ajv = createAjv({ diagnostic });
          for (const doc of (diagnostic ? prepare().docs : byId).values()) ajv.addSchema(doc);
        }
        const id = ref.startsWith('urn:') || ref.includes('://') ? ref : AHP_SCHEMA_BASE + ref;
        v = ajv.getSchema(id);
        if (!v) throw new Error(`no AHP schema for ${ref}`);
        cache.set(ref, v);
      }
      return v;
    };
  };
  const verdict = instance(false);
  const diagnostic = instance(true);
  const defs = isObj(mcpDoc.$defs) ? mcpDoc.$defs : {};
  const hasDef = (def: string) => Object.prototype.hasOwnProperty.call(defs, def);
  registry = {
    get index() {
      return prepare().index;
    },
    docs,
    check: (ref: string) => {
      const v = verdict(ref);
      return (value: unknown) => v(value) === true;
    },
    validator: diagnostic,
    mcp: { id: mcpId, doc: mcpDoc },
    mcpCheck: (def: string) => {
      if (!hasDef(def)) return undefined;
      const v = verdict(`${mcpId}#/$defs/${def}`);
      return (value: unknown) => v(value) === true;
    },
    mcpValidator: (def: string) => (hasDef(def) ? diagnostic(`${mcpId}#/$defs/${def}`) : undefined),
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
  return enumAt(ahpSchemas().docs.get('events.schema.json'), ['$defs', 'interceptableEvent', 'properties', 'type', 'enum']);
}
