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
  file: 0,
  line: 1,
  /** {@link EVENT_FLAG} bits, the form (bits 8-10) and the type's name code (bits 16-31). */
  flags: 2,
  typeFp: 3,
  control: 4,
  /** The first intercepted copy: its line fingerprint when rereadable, else the low word of a 64-bit digest. */
  interceptDigest: 5,
  /** 2 columns: the parent's key (hi, lo words), when {@link EVENT_FLAG.hasParent}. */
  parentKey: 6,
  count: 8,
} as const;
/** The float64 columns of an event row (NaN: no byte offset). */
export const EVENT_F64 = { byteOffset: 0, count: 1 } as const;
/** Bits 0-7 and 11 of the flags column. */
export const EVENT_FLAG = {
  /** The first occurrence was an observation (else an intercept request). */
  observed: 1,
  /** The row holds the first intercepted copy ({@link EVENT_U32.interceptDigest}). */
  intercepted: 2,
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
} as const;
/** Bits 8-10 of the flags: the elicitation request's form (index in {@link FORMS}, 0: none). */
export const FORM_SHIFT = 8;
export const FORMS = [undefined, 'parsed', 'url', 'view', 'invalid', 'absent'] as const;
/** Bits 16-31 of the flags: the type's name code. */
export const TYPE_SHIFT = 16;
/** Most distinct event types, elicitation servers and modes remembered by name (codes fit in 16 bits). */
export const MAX_NAMES = 4096;

/** The u32 columns of the extra row some events have: elicitation requests, denials, answers, 64-bit digests. */
export const EXTRA_U32 = {
  sessionFp: 0,
  /** The elicitation server's name code (bits 0-15) and mode's (bits 16-31). */
  elicitNames: 1,
  /** 2 columns: the 64-bit digest of the last elicitation answer checked against the form. */
  answerDigest: 2,
  deniedFile: 4,
  deniedLine: 5,
  /** The high word of a 64-bit intercept digest (the low word is in the event row). */
  interceptHi: 6,
  count: 7,
} as const;
export const EXTRA_F64 = { deniedByteOffset: 0, count: 1 } as const;

/** The wide table's columns: the control fingerprints in {@link CONTROL_FIELDS} order, then the presence mask. */
export const WIDE_U32 = { control: 0, mask: CONTROL_FIELDS.length, count: CONTROL_FIELDS.length + 1 } as const;

/** The form verdict an elicitation request row keeps (see elicitation.ts). */
export type FormVerdict = NonNullable<(typeof FORMS)[number]>;

/** The key of an event identity `(source, id)` (`pairKey`: the id hashed under a key derived from the source). */
export const eventKey = (source: string, id: string): Hash64 => pairKey(source, id);

/** The fingerprint of `ev.session.id` as the event rows keep it (undefined: none). */
export function sessionPrintOf(ev: Obj): number | undefined {
  const id = isObj(ev.session) ? ev.session.id : undefined;
  if (id === undefined) return undefined;
  return fnv32(
    typeof id === 'string'
      ? 's' + id
      : id === null || typeof id !== 'object'
        ? typeof id + String(id)
        : 'o' + valueDigest(id),
  );
}

/** Control-metadata fingerprints of one occurrence: one FNV-1a per field and a presence mask. */
export interface ControlPrint {
  fp: number[];
  mask: number;
}

const CONTROL_PATHS = CONTROL_FIELDS.map((f) => f.split('.'));

/** Fingerprints of the control metadata of `ev` (see {@link CONTROL_FIELDS}). */
export function controlPrint(ev: Obj): ControlPrint {
  const fp: number[] = new Array<number>(CONTROL_PATHS.length);
  let mask = 0;
  for (let i = 0; i < CONTROL_PATHS.length; i++) {
    const path = CONTROL_PATHS[i]!;
    let cur: unknown = ev;
    for (let j = 0; j < path.length && cur !== undefined; j++) cur = isObj(cur) ? cur[path[j]!] : undefined;
    if (cur === undefined) {
      fp[i] = 0;
      continue;
    }
    mask |= 1 << i;
    // strings and scalars directly ('s' + the string, without building it); anything else through the depth-safe digest
    fp[i] =
      typeof cur === 'string'
        ? fnv32(cur, 0x73)
        : fnv32(cur === null || typeof cur !== 'object' ? typeof cur + String(cur) : 'o' + valueDigest(cur));
  }
  return { fp, mask };
}

/**
 * One 32-bit digest of a {@link ControlPrint}: FNV-1a over the mask and the fingerprints as words. Each step is a
 * bijection of the running hash, so prints that differ in one word always differ here.
 */
export function controlDigest(c: ControlPrint): number {
  let h = Math.imul(0x811c9dc5 ^ c.mask, 0x01000193);
  for (let i = 0; i < c.fp.length; i++) h = Math.imul(h ^ c.fp[i]!, 0x01000193);
  return h >>> 0;
}

/** The type fingerprint an event of type `t` has in its metadata. */
export const typeFp = (t: string): number => fnv32('s' + t);
export const TYPE_FP = {
  'user.elicitation.request': typeFp('user.elicitation.request'),
  'config.change.before': typeFp('config.change.before'),
  'task.change.before': typeFp('task.change.before'),
  'workspace.change.before': typeFp('workspace.change.before'),
} as const;
