/** The event identity analyzer's row layout and control prints (identity.ts). */
import { pairKey, type Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import { childPointer } from '../../core/pointer.ts';
import { isObj, own, type Obj } from '../../core/value.ts';
import { fnv32, valueDigest } from './digest.ts';

/** Where a message holds its event. */
export const EVENT_PTR = '/params/event';

/** Names of the control metadata compared across occurrences of one event, in fingerprint order. */
export const CONTROL_FIELDS = [
  'type',
  'time',
  'parentEventId',
  'session.id',
  'turn.id',
  'call.id',
  'elicitation.server',
  'elicitation.mode',
  'elicitation.action',
  'task.id',
  'task.operation',
  'workspace.kind',
  'rest of the event',
] as const;

/** The identity analyzer's u32 columns of an event row (event-rows.ts). */
export const EVENT_U32 = {
  /** The control metadata as one digest; a re-readable line's fingerprint instead (identity.ts `hasWide`). */
  control: 1,
  /** The first intercepted copy: its line fingerprint when rereadable, else the low word of a 64-bit digest. */
  interceptDigest: 2,
  /** How many columns the identity analyzer adds. */
  count: 2,
} as const;
/** Most distinct event types, elicitation servers and modes remembered by name (codes fit in 16 bits). */
export const MAX_NAMES = 4096;

/** The u32 columns of the identity's rare row: a 64-bit intercept digest's high word, a type without a name code. */
export const RARE_U32 = {
  /** The high word of a 64-bit intercept digest (the low word is in the event row). */
  interceptHi: 0,
  /** The type's fingerprint ({@link typeFp}) when the names were full (name code 0). */
  typeFp: 1,
  count: 2,
} as const;

/** The f64 column of the identity's rare row: the place of the latest delivery kept as the intercepted copy, plus 1 (0: none). */
export const RARE_F64 = { deliveryPos: 0, count: 1 } as const;

/** The wide table's columns: the control fingerprints in {@link CONTROL_FIELDS} order, then the presence mask. */
export const WIDE_U32 = { control: 0, mask: CONTROL_FIELDS.length, count: CONTROL_FIELDS.length + 1 } as const;

/** The key of an event identity `(source, id)` (`pairKey`: the id hashed under a key derived from the source). */
export const eventKey = (source: string, id: string): Hash64 => pairKey(source, id);

/** Control-metadata fingerprints of one occurrence: one FNV-1a per field and a presence mask. */
export interface ControlPrint {
  fp: number[];
  mask: number;
}

/** The fingerprint of a present control field's value `v` (its word in the print). */
export function fieldPrintOf(v: unknown): number {
  // strings and scalars directly ('s' + the string, without building it); anything else through the depth-safe digest
  return typeof v === 'string'
    ? fnv32(v, 0x73)
    : fnv32(v === null || typeof v !== 'object' ? typeof v + String(v) : 'o' + valueDigest(v));
}

/** Fingerprint of control field `i`'s value `v` into `fp[i]` (0 when absent); its mask bit when present. */
function fieldPrint(fp: number[] | Uint32Array, i: number, v: unknown): number {
  if (v === undefined) {
    fp[i] = 0;
    return 0;
  }
  fp[i] = fieldPrintOf(v);
  return 1 << i;
}

/** The control-metadata fingerprints of `ev` into `fp` ({@link CONTROL_FIELDS} order); returns the presence mask. */
export function controlPrintInto(ev: Obj, fp: number[] | Uint32Array): number {
  const session = isObj(ev.session) ? ev.session : undefined;
  const turn = isObj(ev.turn) ? ev.turn : undefined;
  const call = isObj(ev.call) ? ev.call : undefined;
  const el = isObj(ev.elicitation) ? ev.elicitation : undefined;
  const task = isObj(ev.task) ? ev.task : undefined;
  const ws = isObj(ev.workspace) ? ev.workspace : undefined;
  return (
    fieldPrint(fp, 0, ev.type) |
    fieldPrint(fp, 1, ev.time) |
    fieldPrint(fp, 2, ev.parentEventId) |
    fieldPrint(fp, 3, session?.id) |
    fieldPrint(fp, 4, turn?.id) |
    fieldPrint(fp, 5, call?.id) |
    fieldPrint(fp, 6, el?.server) |
    fieldPrint(fp, 7, el?.mode) |
    fieldPrint(fp, 8, el?.action) |
    fieldPrint(fp, 9, task?.id) |
    fieldPrint(fp, 10, task?.operation) |
    fieldPrint(fp, 11, ws?.kind) |
    restPrint(fp, 12, ev)
  );
}

/**
 * What may differ between views of one event (base/failure.md §Duplicate delivery and retries; content-upload.md):
 * content parts and lists, projected opaque JSON (`native`, `input`), and modify targets' values.
 */
const VIEW_MEMBERS = new Set(['native', 'input', 'change', 'items', 'messages', 'parts', 'instructions', 'summary']);
/** Members of the control fields' objects printed on their own ({@link CONTROL_FIELDS}). */
const CONTROL_SUB: ReadonlyMap<string, readonly string[]> = new Map([
  ['session', ['id']],
  ['turn', ['id']],
  ['call', ['id']],
  ['task', ['id', 'operation']],
  ['workspace', ['kind']],
  ['elicitation', ['server', 'mode', 'action', 'request', 'result']],
]);
const TOP_SKIP = new Set(['id', 'source', 'type', 'time', 'parentEventId']);
/** Member names' fingerprints (names repeat from event to event; at most 4096 kept). */
const keyPrints = new Map<string, number>();
function mix(k: string, v: number): number {
  let kp = keyPrints.get(k);
  if (kp === undefined) {
    kp = fnv32(k, 0x6b);
    if (keyPrints.size < 4096) keyPrints.set(k, kp);
  }
  return Math.imul(kp ^ v, 0x9e3779b1) ^ (v >>> 15);
}

/** An order-independent print of the event's members outside {@link VIEW_MEMBERS} and the control fields. */
function restPrint(fp: number[] | Uint32Array, i: number, ev: Obj): number {
  let h = 0;
  for (const k in ev) {
    if (TOP_SKIP.has(k)) continue;
    const v = ev[k];
    const sub = CONTROL_SUB.get(k);
    if (sub !== undefined && isObj(v)) h = (h + mix(k, objPrint(v, 1, sub))) | 0;
    else if (!VIEW_MEMBERS.has(k)) h = (h + mix(k, jsonPrint(v, 1))) | 0;
  }
  fp[i] = h >>> 0;
  return 1 << i;
}

function objPrint(o: Obj, depth: number, skip?: readonly string[]): number {
  let h = 0x2f;
  for (const k in o) {
    const v = o[k];
    if (VIEW_MEMBERS.has(k) || skip?.includes(k)) continue;
    if (typeof v === 'object' && Array.isArray(v) && isPart(v[0])) continue;
    h = (h + mix(k, jsonPrint(v, depth + 1))) | 0;
  }
  return h;
}

/** A content part or message (a selection view). */
const isPart = (v: unknown): boolean => isObj(v) && (own(v, 'selection') || Array.isArray(v.parts));

function jsonPrint(v: unknown, depth: number): number {
  if (typeof v === 'string') return fnv32(v, 0x73);
  if (v === null || typeof v !== 'object') return fnv32(typeof v + String(v));
  if (depth > 32) return fnv32(valueDigest(v));
  if (!Array.isArray(v)) return objPrint(v as Obj, depth);
  let h = 0x5b;
  for (const x of v) h = Math.imul(h ^ jsonPrint(x, depth + 1), 0x01000193);
  return h;
}

/** {@link controlPrintInto} as a new print (for the rare paths and tests). */
export function controlPrint(ev: Obj): ControlPrint {
  const fp = new Array<number>(CONTROL_FIELDS.length);
  const mask = controlPrintInto(ev, fp);
  return { fp, mask };
}

/**
 * One 32-bit digest of a print (`mask` and `fp`, {@link ControlPrint}): FNV-1a over the mask and the fingerprints as
 * words. Each step is a bijection of the running hash, so prints that differ in one word always differ here.
 */
export function controlDigest(mask: number, fp: ArrayLike<number>): number {
  let h = Math.imul(0x811c9dc5 ^ mask, 0x01000193);
  for (let i = 0; i < fp.length; i++) h = Math.imul(h ^ fp[i]!, 0x01000193);
  return h >>> 0;
}

/** The type fingerprint an event of type `t` has in its metadata. */
export const typeFp = (t: string): number => fnv32('s' + t);
export const TYPE_FP = {
  'user.elicitation.request': typeFp('user.elicitation.request'),
  'config.change.before': typeFp('config.change.before'),
  'task.change.before': typeFp('task.change.before'),
  'workspace.change.before': typeFp('workspace.change.before'),
  'tool.before': typeFp('tool.before'),
} as const;

/** Control fields' pointers under the event (the fingerprint's last field has none: it is the rest). */
export const CONTROL_POINTERS: readonly (string | undefined)[] = CONTROL_FIELDS.map((f) =>
  f === 'rest of the event' ? undefined : `${EVENT_PTR}/${f.replace('.', '/')}`,
);

/** Members a view of the event may change ({@link restPrint}'s skips): a metadata difference is never one of them. */
export const isViewMember = (k: string, v: unknown): boolean =>
  VIEW_MEMBERS.has(k) || k === 'request' || k === 'result' || (Array.isArray(v) && isPart(v[0]));

/** Past this depth two subtrees are compared by digest and a difference is placed at the subtree. */
const DIFF_DEPTH = 256;

/**
 * The pointer of the first member (object members in code-unit order, array items in order) where `b` differs from `a`
 * (a member only `a` has: that member, which `b` lacks, located at the object that lacks it; a longer array: its first
 * extra item); undefined when they are the same JSON value or differ only where `skip` says. `b` is the later
 * occurrence, whose text the finding points into.
 */
export function firstDifference(
  a: unknown,
  b: unknown,
  at: string,
  skip?: (k: string, v: unknown) => boolean,
  depth = 0,
): string | undefined {
  if (a === b) return undefined;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return at;
  if (Array.isArray(a) !== Array.isArray(b)) return at;
  if (depth >= DIFF_DEPTH) return valueDigest(a) === valueDigest(b) ? undefined : at;
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(a[i], b[i], `${at}/${i}`, skip, depth + 1);
      if (d !== undefined) return d;
    }
    return b.length > n ? `${at}/${n}` : a.length > n ? at : undefined;
  }
  const oa = a as Obj;
  const ob = b as Obj;
  // members in code-unit order, so that the member order of either copy never moves the finding
  const keys = [...new Set([...Object.keys(oa), ...Object.keys(ob)])].sort();
  for (const k of keys) {
    const inA = own(oa, k);
    const inB = own(ob, k);
    if (skip?.(k, inB ? ob[k] : oa[k])) continue;
    if (!inA || !inB) return childPointer(at, k);
    const d = firstDifference(oa[k], ob[k], childPointer(at, k), skip, depth + 1);
    if (d !== undefined) return d;
  }
  return undefined;
}

/** An event id reused by the same source in a way a retry or another view of the event cannot explain. */
export interface ReuseFacts {
  prior: Mark;
  priorVia: 'intercept' | 'observe';
  /** `type`: another event type; `retry`: a re-sent intercept request whose event differs. */
  kind: 'type' | 'retry' | 'metadata' | 'unverifiable';
  /** The differing control fields (may be empty for `retry`: then only content differs). */
  fields: string[];
  /** The first differing member of this message (undefined: the earlier copy could not be read back). */
  pointer?: string;
}

/** What the event-identity analyzer says about the event of a message. */
export interface IdentityFacts {
  /** The first occurrence of its `(source, id)` (in the rows held). */
  first: boolean;
  reuse?: ReuseFacts;
}

/** Whether control field `i` differs between `first` and the event of `scope`. */
export function differsAt(
  first: ControlPrint,
  i: number,
  scope: { fp: ArrayLike<number> | undefined; mask: number },
): boolean {
  return ((first.mask >>> i) & 1) !== ((scope.mask >>> i) & 1) || first.fp[i] !== scope.fp![i];
}

/** The control fields that differ between `first` and the event of `scope` (its print made). */
export function fieldsDiffering(first: ControlPrint, scope: { fp: ArrayLike<number>; mask: number }): string[] {
  return CONTROL_FIELDS.filter((_, i) => differsAt(first, i, scope));
}

/** The member of the first of `fields` that is one (undefined: none, or only the rest of the event). */
export function fieldPointer(fields: readonly string[]): string | undefined {
  for (const f of fields) {
    const p = CONTROL_POINTERS[CONTROL_FIELDS.indexOf(f as (typeof CONTROL_FIELDS)[number])];
    if (p !== undefined) return p;
  }
  return undefined;
}
