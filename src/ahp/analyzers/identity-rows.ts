import { pairKey, type Hash64 } from '../../core/canonical.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { fnv32, valueDigest } from './digest.ts';

/** The layout of an event row of the event-identity analyzer (identity.ts). */
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

/**
 * The u32 columns of an event row. The control metadata is one digest ({@link controlDigest}); which field differs is
 * named from the first occurrence's line read back, or from {@link WIDE_U32} where the input cannot be read back.
 */
export const EVENT_U32 = {
  /** {@link EVENT_FLAG} bits, the form (bits 8-10) and the type's name code (bits 16-31). */
  flags: 0,
  control: 1,
  /** The first intercepted copy: its line fingerprint when rereadable, else the low word of a 64-bit digest. */
  interceptDigest: 2,
  count: 3,
} as const;
/** The float64 column of an event row: its input, line and byte offset (budget.ts `EventBudget.pos`). */
export const EVENT_F64 = { pos: 0, count: 1 } as const;
/** Bits 0-7 and 11-13 of the flags column. */
export const EVENT_FLAG = {
  /** The first occurrence was an observation (else an intercept request). */
  observed: 1,
  /** The row holds the first intercepted copy ({@link EVENT_U32.interceptDigest}). */
  intercepted: 2,
  /** The event names a parent (its key is in the identity's parents table). */
  hasParent: 4,
  modeReported: 8,
  denied: 16,
  answerChecked: 32,
  /** The intercepted copy is a line fingerprint: read the line back to compare. */
  rereadable: 64,
  /** The control fingerprints are kept in the wide table (the first occurrence cannot be read back). */
  wide: 128,
  /** The first occurrence had a `session.id` (its fingerprint is in the extra row). */
  session: 2048,
  /** The row has a rare row (RARE_U32). */
  rare: 4096,
  /** An intercept request of the event met an operational failure (an error or rejected response; decisions.ts). */
  failed: 8192,
} as const;
/** Bits 8-10 of the flags: the elicitation request's form (index in {@link FORMS}, 0: none). */
export const FORM_SHIFT = 8;
export const FORMS = [undefined, 'parsed', 'url', 'view', 'invalid', 'absent'] as const;
/** Bits 16-31 of the flags: the type's name code. */
export const TYPE_SHIFT = 16;
/** Most distinct event types, elicitation servers and modes remembered by name (codes fit in 16 bits). */
export const MAX_NAMES = 4096;

/** The u32 columns of the extra row of elicitation requests. */
export const EXTRA_U32 = {
  sessionFp: 0,
  /** The elicitation server's name code (bits 0-15) and mode's (bits 16-31). */
  elicitNames: 1,
  count: 2,
} as const;

/** The u32 columns of the rare row: denials, 64-bit intercept digests, a type without a name code. */
export const RARE_U32 = {
  /** The high word of a 64-bit intercept digest (the low word is in the event row). */
  interceptHi: 0,
  /** The type's fingerprint ({@link typeFp}) when the names were full (name code 0). */
  typeFp: 1,
  count: 2,
} as const;
/** The float64 columns of the rare row: where the denial and the operational failure were (budget.ts `EventBudget.pos`). */
export const RARE_F64 = { deniedPos: 0, failedPos: 1, count: 2 } as const;

/** The wide table's columns: the control fingerprints in {@link CONTROL_FIELDS} order, then the presence mask. */
export const WIDE_U32 = { control: 0, mask: CONTROL_FIELDS.length, count: CONTROL_FIELDS.length + 1 } as const;

/** The form verdict an elicitation request row keeps (see elicitation.ts). */
export type FormVerdict = NonNullable<(typeof FORMS)[number]>;

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

/**
 * The control-metadata fingerprints of `ev` into `fp`, in {@link CONTROL_FIELDS} order, and their presence mask
 * (returned): each field read by name (not a keyed walk over the paths, docs/benchmarks.md), into the caller's array
 * (no print allocated per message); test/ahp-stream/control-print.test.ts holds it to that walk.
 */
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
