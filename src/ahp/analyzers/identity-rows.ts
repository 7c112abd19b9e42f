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

/** The unsigned 32-bit columns of an event row (two-word digests take two columns). */
export const EVENT_U32 = {
  file: 0,
  line: 1,
  type: 2,
  flags: 3,
  /** 12 columns: the control-metadata fingerprints, in {@link CONTROL_FIELDS} order. */
  control: 4,
  /** 2 columns: the first intercepted copy (line fingerprint + 0 when rereadable, else a 64-bit digest). */
  interceptDigest: 16,
  /** 2 columns: the 64-bit digest of the last elicitation answer checked against the form. */
  answerDigest: 18,
  deniedFile: 20,
  deniedLine: 21,
  elicitServer: 22,
  elicitMode: 23,
  /** 2 columns: the parent's key (hi, lo words), when {@link EVENT_FLAG.hasParent}. */
  parentKey: 24,
  count: 26,
} as const;
/** The float64 columns of an event row (NaN: no byte offset). */
export const EVENT_F64 = { byteOffset: 0, deniedByteOffset: 1, count: 2 } as const;
/** Bits 0-6 of the flags column. */
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
} as const;
/** Bits 8-10 of the flags: the elicitation request's form (index in {@link FORMS}, 0: none). */
export const FORM_SHIFT = 8;
export const FORMS = [undefined, 'parsed', 'url', 'view', 'invalid', 'absent'] as const;
/** Bits 16-27 of the flags: which control fields are present. */
export const CONTROL_PRESENT_SHIFT = 16;
export const CONTROL_MASK = (1 << CONTROL_FIELDS.length) - 1;
/** Most distinct event types, elicitation servers and modes remembered by name. */
export const MAX_NAMES = 4096;

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

/** The type fingerprint an event of type `t` has in its metadata. */
export const typeFp = (t: string): number => fnv32('s' + t);
export const TYPE_FP = {
  'user.elicitation.request': typeFp('user.elicitation.request'),
  'config.change.before': typeFp('config.change.before'),
  'task.change.before': typeFp('task.change.before'),
  'workspace.change.before': typeFp('workspace.change.before'),
} as const;
