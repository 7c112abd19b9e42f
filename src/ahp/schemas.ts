/**
 * The AHP draft schema registry: loads our schemas from `schemas/ahp/` (written from the AHP
 * draft prose) and the pinned MCP elicitation extraction from
 * `schemas/mcp/mcp-elicitation.schema.json`, compiles them once per process with ajv 2020 +
 * ajv-formats, and indexes every schema node so that ajv errors can be attributed to rule ids.
 *
 * Annotation keywords used in our schemas (all annotation-only; none changes a verdict):
 * - `x-ahp-rule`: the rule id of a schema subtree. A document-level value is the default for
 *   every definition of that file.
 * - `x-ahp-message`: the sentence reported for errors raised by the keywords of that node.
 * - `x-ahp-additional`: the sentence for `additionalProperties` errors of that node (`{prop}` is
 *   replaced by the member name).
 * - `x-ahp-context` (added at load time to `$ref` nodes): records which rule applied a shared
 *   definition at which instance location, so errors inside shared leaves (non-empty strings,
 *   SHA-256 values, sessions, ...) are attributed to the rule that used them.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isRfc3339DateTime } from './formats.ts';

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

/** Static facts about one schema node. */
export interface NodeInfo {
  /** `x-ahp-rule` of the node or of its nearest annotated ancestor inside a definition. */
  defRule?: string;
  /** The document-level default rule of the file holding the node. */
  docRule?: string;
  /** The enclosing schema node (arrays are transparent) and the key under which this node sits. */
  parent?: object;
  parentKey?: string;
}

/** One recorded application of an annotated node during a validation run. */
export interface ContextRecord {
  path: string;
  rule: string;
  /** True for an explicit `x-ahp-rule`; false for a load-time `x-ahp-context`. */
  explicit: boolean;
}

/** The compiled registry. */
export interface AhpSchemaRegistry {
  /** Static node facts, keyed by schema node identity (ajv `verbose` errors carry `parentSchema`). */
  nodes: WeakMap<object, NodeInfo>;
  /** Our loaded schema documents by file name (after load-time annotation). */
  docs: ReadonlyMap<string, Record<string, unknown>>;
  /** A fast verdict for a `$ref` such as `messages.schema.json#/$defs/interceptRequest`. */
  check(ref: string): (value: unknown) => boolean;
  /** The diagnostic validator (all errors, verbose) for a `$ref`; run it inside {@link AhpSchemaRegistry.recording}. */
  validator(ref: string): ValidateFunction;
  /** The MCP extraction document (as loaded) and its `$id`. */
  mcp: { id: string; doc: Record<string, unknown> };
  /** A fast verdict for a `$defs` entry of the MCP extraction, or `undefined` when it has none. */
  mcpCheck(def: string): ((value: unknown) => boolean) | undefined;
  /** The diagnostic validator for a `$defs` entry of the MCP extraction, or `undefined` when it has none. */
  mcpValidator(def: string): ValidateFunction | undefined;
  /**
   * Run `fn` while recording annotated-node applications; returns its result and the records.
   * Validation is synchronous, so one module-level recorder suffices.
   */
  recording<T>(fn: () => T): { result: T; records: ContextRecord[] };
}

// ajv-formats is CommonJS; under NodeNext its default import is the module namespace.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020;

let registry: AhpSchemaRegistry | undefined;
let recorder: ContextRecord[] | undefined;

function readJson(url: URL): Record<string, unknown> {
  return JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Walk a schema document, recording static facts for every object node and adding
 * `x-ahp-context` to `$ref` nodes that have a rule but no `x-ahp-rule` of their own.
 */
function indexDocument(doc: Record<string, unknown>, nodes: WeakMap<object, NodeInfo>, annotate: boolean): void {
  const docRule = typeof doc['x-ahp-rule'] === 'string' ? (doc['x-ahp-rule'] as string) : undefined;
  const visit = (node: unknown, parent: object | undefined, parentKey: string | undefined, inherited: string | undefined, depth: number): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, parent, parentKey, inherited, depth);
      return;
    }
    if (!isObj(node)) return;
    // The document root's rule is only a default; definitions start without an inherited rule.
    const own = depth > 0 && typeof node['x-ahp-rule'] === 'string' ? (node['x-ahp-rule'] as string) : undefined;
    const defRule = own ?? inherited;
    nodes.set(node, { defRule, docRule, parent, parentKey });
    if (annotate && typeof node.$ref === 'string' && node['x-ahp-rule'] === undefined) {
      const rule = defRule ?? docRule;
      if (rule) node['x-ahp-context'] = rule;
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === 'const' || k === 'enum' || k === 'default' || k === 'examples') continue;
      if (v !== null && typeof v === 'object') visit(v, node, k, defRule, depth + 1);
    }
  };
  visit(doc, undefined, undefined, undefined, 0);
}

/** Create an ajv instance with our formats and annotation keywords. */
function createInstance(diagnostic: boolean): Ajv2020 {
  // Diagnostic: every error, and `verbose` so errors carry `parentSchema` (rule attribution).
  // Verdict: stop at the first error, no recording. Not strict: the MCP extraction is
  // upstream-derived and uses keywords such as `enumNames`. No code optimisation passes: the
  // AHP schemas are large, and skipping them saves ~0.2 s of start-up with no measurable loss
  // in validation speed (docs/benchmarks.md).
  const ajv = new Ajv2020({ strict: false, allErrors: diagnostic, verbose: diagnostic, validateFormats: true, code: { optimize: false } });
  addFormats(ajv);
  ajv.addFormat('date-time', { type: 'string', validate: isRfc3339DateTime });
  const record = (explicit: boolean) =>
    function (this: unknown, schema: unknown, _data: unknown, _parent: unknown, cxt?: { instancePath?: string }): boolean {
      if (recorder && typeof schema === 'string') recorder.push({ path: cxt?.instancePath ?? '', rule: schema, explicit });
      return true;
    };
  if (diagnostic) {
    ajv.addKeyword({ keyword: 'x-ahp-rule', schemaType: 'string', errors: false, validate: record(true) });
    ajv.addKeyword({ keyword: 'x-ahp-context', schemaType: 'string', errors: false, validate: record(false) });
  } else {
    ajv.addKeyword({ keyword: 'x-ahp-rule', schemaType: 'string' });
    ajv.addKeyword({ keyword: 'x-ahp-context', schemaType: 'string' });
  }
  ajv.addKeyword({ keyword: 'x-ahp-message', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-ahp-additional', schemaType: 'string' });
  return ajv;
}

/**
 * The process-wide registry, built on first use. Two ajv instances share the loaded documents:
 * a fast one for verdicts (first error only) and, built on the first failure, a diagnostic one
 * (all errors, verbose, recording).
 * @throws Error when a schema file is missing or unreadable (an installation problem), naming it.
 */
export function ahpSchemas(): AhpSchemaRegistry {
  if (registry) return registry;
  const nodes = new WeakMap<object, NodeInfo>();
  const docs = new Map<string, Record<string, unknown>>();
  for (const file of AHP_SCHEMA_FILES) {
    const url = new URL(file, SCHEMA_DIR);
    let doc: Record<string, unknown>;
    try {
      doc = readJson(url);
    } catch (err) {
      throw new Error(`cannot load AHP schema ${file}: ${(err as Error).message}`);
    }
    indexDocument(doc, nodes, true);
    docs.set(file, doc);
  }
  let mcpDoc: Record<string, unknown>;
  try {
    mcpDoc = readJson(MCP_SCHEMA_URL);
  } catch (err) {
    throw new Error(`cannot load the pinned MCP elicitation extraction schemas/mcp/mcp-elicitation.schema.json: ${(err as Error).message}`);
  }
  const mcpId = typeof mcpDoc.$id === 'string' ? mcpDoc.$id : 'urn:agent-conformance:mcp-elicitation';
  if (typeof mcpDoc.$id !== 'string') mcpDoc.$id = mcpId;
  indexDocument(mcpDoc, nodes, false);

  const instance = (diagnostic: boolean) => {
    let ajv: Ajv2020 | undefined;
    const cache = new Map<string, ValidateFunction>();
    return (ref: string): ValidateFunction => {
      let v = cache.get(ref);
      if (!v) {
        if (!ajv) {
          ajv = createInstance(diagnostic);
          for (const doc of docs.values()) ajv.addSchema(doc);
          ajv.addSchema(mcpDoc);
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
    nodes,
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
    recording<T>(fn: () => T) {
      const prev = recorder;
      const records: ContextRecord[] = [];
      recorder = records;
      try {
        return { result: fn(), records };
      } finally {
        recorder = prev;
      }
    },
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
