/** The event identity analyzer's row layout and control prints (identity.ts). */
import { pairKey, type Hash64 } from '../../core/canonical.ts';
import { isObj, type Obj } from '../../core/value.ts';
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
] as const;

/** The identity analyzer's u32 columns of an event row (event-rows.ts), the control metadata as one digest. */
export const EVENT_U32 = {
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

/** The wide table's columns: the control fingerprints in {@link CONTROL_FIELDS} order, then the presence mask. */
export const WIDE_U32 = { control: 0, mask: CONTROL_FIELDS.length, count: CONTROL_FIELDS.length + 1 } as const;

/** The key of an event identity `(source, id)` (`pairKey`: the id hashed under a key derived from the source). */
export const eventKey = (source: string, id: string): Hash64 => pairKey(source, id);

/** Control-metadata fingerprints of one occurrence: one FNV-1a per field and a presence mask. */
export interface ControlPrint {
  fp: number[];
  mask: number;
}

/** Fingerprint of control field `i`'s value `v` into `fp[i]` (0 when absent); its mask bit when present. */
function fieldPrint(fp: number[] | Uint32Array, i: number, v: unknown): number {
  if (v === undefined) {
    fp[i] = 0;
    return 0;
  }
  // strings and scalars directly ('s' + the string, without building it); anything else through the depth-safe digest
  fp[i] =
    typeof v === 'string'
      ? fnv32(v, 0x73)
      : fnv32(v === null || typeof v !== 'object' ? typeof v + String(v) : 'o' + valueDigest(v));
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
    fieldPrint(fp, 11, ws?.kind)
  );
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
