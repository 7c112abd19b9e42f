/**
 * The annotation keywords of our schemas (no validation code, never a verdict): `x-rule` (rule id of a node and below,
 * or a map per keyword), `x-message` (sentence or `@key`), `x-aep-capture` (AEP-0002 §5.1), `x-spec`, `enumNames`
 * (MCP).
 */
import { isObj, type Obj } from '../value.ts';

/** Our annotation keywords, registered by every ajv instance. */
export const ANNOTATION_KEYWORDS = ['x-rule', 'x-message', 'x-aep-capture', 'x-spec', 'enumNames'] as const;

/** An `x-rule` / `x-message` value: one string, or a map from keyword (`null`, `*`) to string. */
export type KeywordAnnotation = string | Readonly<Record<string, string>>;

/** The value an annotation gives the error `keyword` raised by the node itself (`isNull`: a type error on null). */
export function ownAnnotation(
  a: unknown,
  keyword: string,
  isNull: boolean,
  additionalDefault: boolean,
): string | undefined {
  if (typeof a === 'string') return additionalDefault && keyword === 'additionalProperties' ? undefined : a;
  if (a === null || typeof a !== 'object') return undefined;
  const m = a as Record<string, unknown>;
  const pick = (k: string) => (typeof m[k] === 'string' ? (m[k] as string) : undefined);
  return (
    (isNull && keyword === 'type' ? pick('null') : undefined) ??
    pick(keyword) ??
    (additionalDefault && keyword === 'additionalProperties' ? undefined : pick('*'))
  );
}

/** The value an annotation gives errors raised below the node (`*`, or the whole string). */
export function inheritedAnnotation(a: unknown): string | undefined {
  if (typeof a === 'string') return a;
  if (a === null || typeof a !== 'object') return undefined;
  const v = (a as Record<string, unknown>)['*'];
  return typeof v === 'string' ? v : undefined;
}

/** Static facts about one schema node, for the error-to-finding mapper. */
export interface NodeInfo {
  /** The rule inherited at this node: its own or its nearest ancestor's `x-rule` (string or `*`), the document root excluded. */
  rule?: string;
  /** The document root's `x-rule` (string or `*`): the default of every definition of that document. */
  docRule?: string;
  /** In a copy made for a `$ref` (see {@link prepareSchemas}): the rule of the location that referred to it. */
  context?: string;
  /** The enclosing schema node (arrays are transparent) and the key under which this node sits. */
  parent?: object;
  parentKey?: string;
  /** For a `{"not": {}}` that was a `false` subschema: the node whose keyword holds it (its annotations speak for it). */
  falseHost?: object;
}

/** Schema nodes by identity (ajv `verbose` errors carry the failing node as `parentSchema`). */
export type SchemaIndex = WeakMap<object, NodeInfo>;

const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
// a `false` under these keywords fails as the keyword itself, with the enclosing node as parentSchema
const OWN_FALSE = new Set(['additionalProperties', 'unevaluatedProperties', 'unevaluatedItems']);

/**
 * Prepare schema documents in place for the mapper: `false` becomes `{"not": {}}` (so its errors have a node); a `$ref`
 * to an unannotated shared leaf points at a copy with the referrer's rule; every object node is indexed.
 */
export function prepareSchemas(
  docs: ReadonlyMap<string, Obj>,
  base: string,
  index: SchemaIndex = new WeakMap(),
): SchemaIndex {
  const hosts = new WeakMap<object, object>();
  for (const doc of docs.values()) rewriteFalse(doc, hosts);
  const docOf = new WeakMap<object, Obj>();
  for (const doc of docs.values()) indexTree(doc, doc, index, docOf);
  for (const doc of docs.values()) markFalse(doc, hosts, index);
  const clones = new Map<string, string>();
  let n = 0;
  const resolve = (ref: string, doc: Obj): { doc: Obj; docId: string; node: unknown } | undefined => {
    const hash = ref.indexOf('#');
    const docPart = hash < 0 ? ref : ref.slice(0, hash);
    const frag = hash < 0 ? '' : ref.slice(hash + 1);
    const docId = docPart === '' ? (doc.$id as string) : docPart.includes(':') ? docPart : base + docPart;
    const target = docs.get(docId);
    if (!target || !frag.startsWith('/')) return undefined;
    let cur: unknown = target;
    for (const raw of frag.slice(1).split('/')) {
      const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      cur = isObj(cur) ? cur[k] : Array.isArray(cur) ? cur[Number(k)] : undefined;
    }
    return { doc: target, docId, node: cur };
  };
  // a worklist: copies made here hold `$ref`s of their own
  const work: Obj[] = [];
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) collect(item);
      return;
    }
    if (!isObj(node)) return;
    if (typeof node.$ref === 'string') work.push(node);
    for (const [k, v] of Object.entries(node))
      if (!DATA_KEYWORDS.has(k) && v !== null && typeof v === 'object') collect(v);
  };
  for (const doc of docs.values()) collect(doc);
  while (work.length) {
    const node = work.pop()!;
    const doc = docOf.get(node)!;
    const rule = refContext(index.get(node)!);
    const t = rule === undefined ? undefined : resolve(node.$ref as string, doc);
    if (!t || !isObj(t.node) || index.get(t.node)?.rule !== undefined) continue;
    const key = `${t.docId}\u0000${node.$ref as string}\u0000${rule}`;
    let ref = clones.get(key);
    if (ref === undefined) {
      const copy = structuredClone(t.node);
      const defs = (isObj(t.doc.$defs) ? t.doc.$defs : (t.doc.$defs = {})) as Obj;
      const name = `__ctx${n++}`;
      defs[name] = copy;
      ref = `${t.docId}#/$defs/${name}`;
      clones.set(key, ref);
      indexTree(copy, t.doc, index, docOf, {
        parent: defs,
        parentKey: name,
        docRule: index.get(t.doc)?.docRule,
        context: rule,
      });
      copyFalseHosts(t.node, copy, index);
      collect(copy);
    }
    node.$ref = ref;
  }
  return index;
}

/** The rule a `$ref` hands on: its own, else its document's default, else its context. */
export function refContext(info: NodeInfo): string | undefined {
  return info.rule ?? info.docRule ?? info.context;
}

/** The rule of an error at `node`: inherited, else a `$ref`'s, else its copy's context, else the default. */
export function ruleOfNode(node: Obj, info: NodeInfo): string | undefined {
  return info.rule ?? (typeof node.$ref === 'string' ? refContext(info) : (info.context ?? info.docRule));
}

const MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** `false` subschemas become `{"not": {}}`; `hosts` keeps each one's host, whose annotations speak for it. */
function rewriteFalse(node: unknown, hosts: WeakMap<object, object>, host?: object): void {
  if (Array.isArray(node)) {
    node.forEach((v, i) => {
      if (v === false && host) hosts.set((node[i] = { not: {} }), host);
      else rewriteFalse(v, hosts, host);
    });
    return;
  }
  if (!isObj(node)) return;
  // inside a map keyword (`properties`, ...) the host is the schema node that holds the map
  const self = host && MAP_KEYWORDS.has(containerKey.get(node) ?? '') ? host : node;
  for (const [k, v] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(k) || k.startsWith('x-')) continue;
    if (v === false && !(self === node && OWN_FALSE.has(k))) hosts.set((node[k] = { not: {} }), self);
    else if (isObj(v) || Array.isArray(v)) {
      if (self === node && MAP_KEYWORDS.has(k) && isObj(v)) containerKey.set(v, k);
      rewriteFalse(v, hosts, self);
    }
  }
}

const containerKey = new WeakMap<object, string>();

/** Give the `false` nodes of a copy the host they have in the original (or its copy). */
function copyFalseHosts(orig: Obj, copy: Obj, index: SchemaIndex): void {
  const pairs = new Map<object, object>();
  const pair = (a: unknown, b: unknown): void => {
    if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') return;
    pairs.set(a, b);
    for (const [k, v] of Object.entries(a)) if (!DATA_KEYWORDS.has(k)) pair(v, (b as Obj)[k]);
  };
  pair(orig, copy);
  for (const [a, b] of pairs) {
    const host = index.get(a)?.falseHost;
    const info = index.get(b);
    if (host && info) info.falseHost = pairs.get(host) ?? host;
  }
}

function markFalse(node: unknown, hosts: WeakMap<object, object>, index: SchemaIndex): void {
  if (Array.isArray(node)) {
    for (const v of node) markFalse(v, hosts, index);
    return;
  }
  if (!isObj(node)) return;
  const host = hosts.get(node);
  const info = index.get(node);
  if (host && info) info.falseHost = host;
  for (const [k, v] of Object.entries(node))
    if (!DATA_KEYWORDS.has(k) && v !== null && typeof v === 'object') markFalse(v, hosts, index);
}

/** Index `root` and its subtree; `at` places a copy under its `$defs` entry. */
function indexTree(root: Obj, doc: Obj, index: SchemaIndex, docOf: WeakMap<object, Obj>, at?: NodeInfo): void {
  const docRule = at ? at.docRule : inheritedAnnotation(doc['x-rule']);
  const visit = (
    node: unknown,
    parent: object | undefined,
    parentKey: string | undefined,
    inherited: string | undefined,
    isRoot: boolean,
  ): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, parent, parentKey, inherited, false);
      return;
    }
    if (!isObj(node)) return;
    // a document root's rule is only its definitions' default (docRule), not inherited
    const rule = (isRoot && !at ? undefined : inheritedAnnotation(node['x-rule'])) ?? inherited;
    index.set(node, { rule, docRule, context: at?.context, parent, parentKey });
    docOf.set(node, doc);
    for (const [k, v] of Object.entries(node))
      if (!DATA_KEYWORDS.has(k) && v !== null && typeof v === 'object') visit(v, node, k, rule, false);
  };
  visit(root, at?.parent, at?.parentKey, undefined, true);
}
