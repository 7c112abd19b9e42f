/** The `x-aep-capture` annotations as a compact tree, and the walk that finds fields above a capture level (AEP-0002 §5.1). */
import { childPointer } from '../core/pointer.ts';
import { CAPTURE_RANK } from './levels.ts';
import type { AepCaptureLevel } from './schema/registry.ts';

export { buildCaptureTree, captureNode, type CaptureNode } from './capture-tree.ts';
import type { CaptureNode } from './capture-tree.ts';

/**
 * `CAPTURE_RANK[level]` by comparisons: a keyed read of that table by a varying name is megamorphic (about a hundred
 * instructions; the per-event screens read it at every event).
 */
export function captureRank(level: AepCaptureLevel): number {
  return level === 'metadata'
    ? 1
    : level === 'redacted'
      ? 2
      : level === 'full'
        ? 3
        : level === 'none'
          ? 0
          : CAPTURE_RANK[level];
}

/** A payload member present above the event's capture level. */
export interface CaptureViolation {
  pointer: string;
  level: AepCaptureLevel;
}

/** Highest capture rank of the members named anywhere below a node. */
function rankBelow(node: CaptureNode): number {
  let r = node.below;
  if (r !== undefined) return r;
  r = 0;
  if (node.items) r = Math.max(r, CAPTURE_RANK[node.items.level], rankBelow(node.items));
  if (node.properties) for (const c of node.properties.values()) r = Math.max(r, CAPTURE_RANK[c.level], rankBelow(c));
  node.below = r;
  return r;
}

/** The members of `node` that can hold a field above `rank` (annotated above it or with such a member below), in the schema's order (the walk looks up only these). */
function watched(node: CaptureNode, rank: number): readonly (readonly [string, CaptureNode])[] {
  const byRank = (node.watch ??= []);
  let list = byRank[rank];
  if (list === undefined) {
    const l: (readonly [string, CaptureNode])[] = [];
    for (const [k, c] of node.properties ?? []) if (CAPTURE_RANK[c.level] > rank || rankBelow(c) > rank) l.push([k, c]);
    byRank[rank] = list = l;
  }
  return list;
}

/**
 * Present members of `data` annotated above `capture` (parents, not their children); unnamed members are `metadata`
 * (AEP-0002 §5.1 rule 4). Iterative; subtrees with nothing above `capture` are not walked.
 */
export function captureViolations(
  data: unknown,
  tree: CaptureNode,
  capture: AepCaptureLevel,
  basePointer = '/data',
): readonly CaptureViolation[] {
  const rank = captureRank(capture);
  if (rankBelow(tree) <= rank || !holdsWatched(data, tree, rank)) return NO_VIOLATIONS;
  const out: CaptureViolation[] = [];
  const stack: [unknown, CaptureNode | undefined, string][] = [[data, tree, basePointer]];
  while (stack.length) {
    const [v, node, ptr] = stack.pop()!;
    if (!node || v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      if (!node.items) continue;
      const walkItems = rankBelow(node.items) > rank;
      for (let i = v.length - 1; i >= 0; i--) {
        if (captureRank(node.items.level) > rank) out.push({ pointer: childPointer(ptr, i), level: node.items.level });
        else if (walkItems) stack.push([v[i], node.items, childPointer(ptr, i)]);
      }
      continue;
    }
    if (!node.properties) continue;
    const o = v as Record<string, unknown>;
    const list = watched(node, rank);
    for (let i = 0; i < list.length; i++) {
      const [k, child] = list[i]!;
      if (!Object.hasOwn(o, k)) continue;
      if (captureRank(child.level) > rank) out.push({ pointer: childPointer(ptr, k), level: child.level });
      else stack.push([o[k], child, childPointer(ptr, k)]);
    }
  }
  return out.length < 2 ? out : out.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

const NO_VIOLATIONS: readonly CaptureViolation[] = [];

/** Whether an object `data` holds a member of {@link watched} (most payloads hold none: no walk). */
function holdsWatched(data: unknown, tree: CaptureNode, rank: number): boolean {
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !tree.properties) return true;
  const list = watched(tree, rank);
  for (let i = 0; i < list.length; i++) if (Object.hasOwn(data, list[i]![0])) return true;
  return false;
}

/** Where {@link forEachGatedString} is: the member keys from its base pointer down to the string visited. */
export class GatedPath {
  /** Keys of the path; the first `depth` are current. */
  readonly keys: (string | number)[] = [];
  depth = 0;
  /** The member name nearest above the base (a path made past the recursion limit keeps no keys but this). */
  name: string | undefined;

  constructor(readonly base: string) {}

  /** The JSON Pointer of the string visited (built only when asked: most strings need none). */
  pointer(): string {
    let p = this.base;
    for (let i = 0; i < this.depth; i++) p = childPointer(p, this.keys[i]!);
    return p;
  }
}

/**
 * The name of the member a string at `at` (its first `depth` keys) belongs to: its own key, or through array items the
 * name of the member that holds the array (`"password": ["<value>"]`), as `aep redact` reads a credential's name.
 */
export function memberName(at: GatedPath, depth = at.depth): string | undefined {
  for (let i = depth - 1; i >= 0; i--) {
    const k = at.keys[i];
    if (typeof k === 'string') return k;
  }
  return at.name;
}

/** How a member's node steers the gated walk: skipped (above `redacted`), gated, ungated with gated members below, or neither. */
const SKIP = 0;
const GATED = 1;
const BELOW = 2;
const PLAIN = 3;

/** The {@link SKIP} .. {@link PLAIN} class of a member annotated by `n` (unannotated: {@link PLAIN}). */
function steer(n: CaptureNode | undefined): number {
  if (n === undefined) return PLAIN;
  return (n.steer ??=
    CAPTURE_RANK[n.level] > CAPTURE_RANK.redacted ? SKIP : isGated(n) ? GATED : gatesBelow(n) ? BELOW : PLAIN);
}

/** The members of `n` that lead to gated text from an ungated object ({@link GATED} or {@link BELOW}). */
function leads(n: CaptureNode): readonly string[] {
  let l = n.leads;
  if (l === undefined) {
    const out: string[] = [];
    for (const [k, c] of n.properties ?? []) if (steer(c) === GATED || steer(c) === BELOW) out.push(k);
    n.leads = l = out;
  }
  return l;
}

/** Nesting beyond which the walk goes on iteratively (deep values under a raised `--max-depth`). */
const RECURSION_LIMIT = 1024;

/**
 * Visit each string of the `redacted`-gated text of `data` (members at `redacted` and `[metadata*]`, any depth), in
 * document order; `full` members are not visited. `at.pointer()` is the string's pointer (most strings need none).
 */
export function forEachGatedString(
  data: unknown,
  tree: CaptureNode,
  visit: (text: string, at: GatedPath) => void,
  basePointer = '/data',
): void {
  gatedValue(data, tree, false, new GatedPath(basePointer), visit);
}

function gatedValue(
  v: unknown,
  node: CaptureNode | undefined,
  gated: boolean,
  at: GatedPath,
  visit: (text: string, at: GatedPath) => void,
): void {
  if (typeof v === 'string') {
    if (gated) visit(v, at);
    return;
  }
  if (v === null || typeof v !== 'object') return;
  if (at.depth >= RECURSION_LIMIT) {
    gatedDeep(v, node, gated, at.pointer(), visit, memberName(at));
    return;
  }
  const d = at.depth;
  if (Array.isArray(v)) {
    const child = node?.items;
    const s = steer(child);
    if (s === SKIP || (!gated && s === PLAIN)) return;
    const g = gated || s === GATED;
    at.depth = d + 1;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x === 'string' ? g : x !== null && typeof x === 'object') {
        at.keys[d] = i;
        gatedValue(x, child, g, at, visit);
      }
    }
    at.depth = d;
    return;
  }
  const o = v as Record<string, unknown>;
  const props = node?.properties;
  if (!gated) {
    // an ungated object is looked into only through the members that lead to gated text (most hold none)
    if (!props) return;
    const l = leads(node!);
    let first = -1;
    let n = 0;
    for (let i = 0; i < l.length; i++)
      if (Object.hasOwn(o, l[i]!)) {
        if (first < 0) first = i;
        n++;
      }
    if (n === 0) return;
    if (n === 1) {
      const k = l[first]!;
      const child = props.get(k);
      at.keys[d] = k;
      at.depth = d + 1;
      gatedValue(o[k], child, steer(child) === GATED, at, visit);
      at.depth = d;
      return;
    }
  }
  at.depth = d + 1;
  for (const k in o) {
    const child = props?.get(k);
    const s = steer(child);
    if (s === SKIP) continue;
    const g = gated || s === GATED;
    if (!g && s === PLAIN) continue;
    const x = o[k];
    if (typeof x === 'string' ? g : x !== null && typeof x === 'object') {
      at.keys[d] = k;
      gatedValue(x, child, g, at, visit);
    }
  }
  at.depth = d;
}

/** {@link gatedValue} below {@link RECURSION_LIMIT}, with an explicit stack. */
function gatedDeep(
  data: unknown,
  tree: CaptureNode | undefined,
  gated0: boolean,
  basePointer: string,
  visit: (text: string, at: GatedPath) => void,
  name0: string | undefined,
): void {
  // a task: a value, its node, its parent's pointer and its key there, whether it is gated, its member's name
  const stack: [unknown, CaptureNode | undefined, string, string | number | undefined, boolean, string | undefined][] =
    [[data, tree, basePointer, undefined, gated0, name0]];
  while (stack.length) {
    const [v, node, parent, key, gated, name] = stack.pop()!;
    if (typeof v === 'string') {
      if (gated) {
        const at = new GatedPath(childPointer(parent, key!));
        at.name = name;
        visit(v, at);
      }
      continue;
    }
    const ptr = key === undefined ? parent : childPointer(parent, key);
    if (Array.isArray(v)) {
      const child = node?.items;
      if (child && CAPTURE_RANK[child.level] > CAPTURE_RANK.redacted) continue;
      const g = gated || isGated(child);
      if (!g && !gatesBelow(child)) continue;
      for (let i = v.length - 1; i >= 0; i--) if (wanted(v[i], g)) stack.push([v[i], child, ptr, i, g, name]);
      continue;
    }
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    const props = node?.properties;
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!;
      const child = props?.get(k);
      if (child && CAPTURE_RANK[child.level] > CAPTURE_RANK.redacted) continue;
      const g = gated || isGated(child);
      if (!g && !gatesBelow(child)) continue;
      if (wanted(o[k], g)) stack.push([o[k], child, ptr, k, g, k]);
    }
  }
}

/** Whether the walk has anything to do with `v`: a gated string, or an object or array to look into. */
const wanted = (v: unknown, gated: boolean): boolean =>
  typeof v === 'string' ? gated : v !== null && typeof v === 'object';

const isGated = (n: CaptureNode | undefined): boolean => n !== undefined && (n.level === 'redacted' || n.star === true);

/** Whether a member at or below `n` (not above `redacted`) is gated; an unannotated member has none. */
function gatesBelow(n: CaptureNode | undefined): boolean {
  if (!n) return false;
  let known = n.gates;
  if (known === undefined) {
    known = false;
    for (const c of [...(n.properties?.values() ?? []), ...(n.items ? [n.items] : [])])
      if (CAPTURE_RANK[c.level] <= CAPTURE_RANK.redacted && (isGated(c) || gatesBelow(c))) known = true;
    n.gates = known;
  }
  return known;
}
