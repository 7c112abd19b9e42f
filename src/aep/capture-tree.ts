/** Building the `x-aep-capture` annotation tree of a payload schema (AEP-0002 §5.1); capture.ts walks it. */
import { CAPTURE_RANK } from './levels.ts';
import type { AepCaptureLevel } from './schema/registry.ts';

/** Annotation tree of one payload schema node. Unannotated members default to `metadata`. */
export interface CaptureNode {
  /** Minimum event capture at which this member may be present. */
  level: AepCaptureLevel;
  /** A `[metadata*]` exception (AEP-0002 §8): at `metadata` only synthesized or structural text. */
  star?: boolean;
  properties?: Map<string, CaptureNode>;
  items?: CaptureNode;
  /** How the gated-string walk treats this member (its memo: {@link forEachGatedString}). */
  steer?: number;
  // memos of rankBelow, watched (by rank), leads, gatesBelow: trees never change, and a WeakMap lookup showed
  below?: number;
  watch?: (readonly (readonly [string, CaptureNode])[])[];
  leads?: readonly string[];
  gates?: boolean;
  /**
   * The last string at this member the content screen passed (capture-checks.ts `mayHoldContent`): the screen is a
   * function of the text alone, and a member's strings recur from event to event (tool names, enum values, versions).
   */
  clean?: string;
  /** The last member name a string at this node was read under that names no credential (credential-names.ts). */
  plainName?: string;
}

type Schema = Record<string, unknown>;

/**
 * A new tree node at `level` with every member present, in one order: nodes then share one shape, so the per-event
 * walks read them with monomorphic loads (nodes grown member by member had many; docs/benchmarks.md).
 */
export function captureNode(level: AepCaptureLevel, properties?: Map<string, CaptureNode>): CaptureNode {
  return {
    level,
    star: undefined,
    properties,
    items: undefined,
    steer: undefined,
    below: undefined,
    watch: undefined,
    leads: undefined,
    gates: undefined,
    clean: undefined,
    plainName: undefined,
  };
}

/** How our schemas mark a `[metadata*]` exception node (the opening of its `$comment`). */
const STAR_MARK = '[metadata*]';

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = root;
  for (const tok of ref.slice(2).split('/')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Schema)[tok.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur && typeof cur === 'object' ? (cur as Schema) : undefined;
}

/** The annotation tree of a payload schema (properties, items, local `$ref`s, applicators; highest level wins). */
export function buildCaptureTree(root: Schema): CaptureNode {
  const seen = new Set<Schema>();
  const build = (s: Schema, inherited: AepCaptureLevel, node: CaptureNode): void => {
    if (seen.has(s)) return;
    seen.add(s);
    if (typeof s.$ref === 'string') {
      const t = resolveRef(root, s.$ref);
      if (t) build(t, inherited, node);
    }
    const lvl = s['x-aep-capture'];
    if (
      typeof lvl === 'string' &&
      lvl in CAPTURE_RANK &&
      CAPTURE_RANK[lvl as AepCaptureLevel] > CAPTURE_RANK[node.level]
    ) {
      node.level = lvl as AepCaptureLevel;
    }
    if (typeof s.$comment === 'string' && s.$comment.startsWith(STAR_MARK)) node.star = true;
    const props = s.properties;
    if (props && typeof props === 'object') {
      node.properties ??= new Map();
      for (const [k, sub] of Object.entries(props as Record<string, Schema>)) {
        if (!sub || typeof sub !== 'object') continue;
        const child = node.properties.get(k) ?? captureNode('metadata');
        build(sub, 'metadata', child);
        node.properties.set(k, child);
      }
    }
    const items = s.items;
    if (items && typeof items === 'object' && !Array.isArray(items)) {
      node.items ??= captureNode('metadata');
      build(items as Schema, 'metadata', node.items);
    }
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = s[k];
      if (Array.isArray(list))
        for (const sub of list) if (sub && typeof sub === 'object') build(sub as Schema, inherited, node);
    }
    for (const k of ['if', 'then', 'else'] as const) {
      const sub = s[k];
      if (sub && typeof sub === 'object') build(sub as Schema, inherited, node);
    }
    seen.delete(s);
  };
  const top = captureNode('metadata');
  build(root, 'metadata', top);
  return top;
}
