/** The `(source, id)` table of the identity analyzer (AEP-0001 §5.1 #2): first occurrences as digests or line places. */
import type { Hash64 } from '../../core/canonical.ts';
import { KeyScreen } from '../../core/key-screen.ts';
import { SpillTable } from '../../core/spill-table.ts';

/** What the table remembers about the first event of a `(source, id)`. */
export type IdEntry = {
  line: number;
  /** Index of the input (see {@link AepIdTable.fileIndex}); below {@link MAX_LINE_FILES} for `line` entries. */
  file: number;
} & (
  | { kind: 'digest'; content: Hash64 }
  | {
      kind: 'line';
      /** The line's {@link lineFingerprint} (tells that the line read back is still the one read). */
      fingerprint: number;
      /** Byte offset of the line start, below {@link MAX_LINE_OFFSET}. */
      byteOffset: number;
    }
);

/** `line` entries: input indexes below this (16 bits). */
export const MAX_LINE_FILES = 0x10000;
/** `line` entries: byte offsets below this (47 bits). */
export const MAX_LINE_OFFSET = 2 ** 47;
const LINE_KIND = 0x80000000;
const TWO32 = 2 ** 32;

/** The u32 columns of an identity row: a digest's two words, or a line's fingerprint and offset, then kind and input. */
const ID_U32 = { contentHi: 0, contentLo: 1, line: 2, file: 3, count: 4 } as const;

/** Most bytes of the key screen of a table that spills (16 bits a key up to 1M keys; more keys pass more often). */
export const SPILL_SCREEN_BYTES = 2 * 1024 * 1024;

/**
 * `(source, id)` -> first occurrence, bound by the memory budget and `maxIds`; keyed SipHash keys. Its oldest rows
 * spill past `spillRows` in memory (src/core/spill-table.ts), its key screen then stops at {@link SPILL_SCREEN_BYTES}.
 */
export class AepIdTable {
  private readonly table: SpillTable;
  private readonly files: string[] = [];
  private readonly fileIds = new Map<string, number>();
  /** Most events are a first occurrence: the screen answers them without the table's random reads. */
  private readonly seen: KeyScreen;

  constructor(
    readonly maxIds: number,
    spillRows?: number,
  ) {
    this.table = new SpillTable({ u32: ID_U32.count, f64: 0, cap: maxIds, forget: 'half', memRows: spillRows });
    this.seen = new KeyScreen(spillRows === Infinity ? Infinity : SPILL_SCREEN_BYTES);
  }

  get size(): number {
    return this.table.size;
  }

  /** Bytes of the entries held (the memory budget, src/core/state-budget.ts). */
  bytes(): number {
    return this.table.bytes();
  }

  forgetOldest(): boolean {
    return this.table.forgetOldest();
  }

  /** A small integer for an input name (inputs are few; names are stored once). */
  fileIndex(name: string): number {
    let i = this.fileIds.get(name);
    if (i === undefined) {
      i = this.files.length;
      this.files.push(name);
      this.fileIds.set(name, i);
    }
    return i;
  }

  fileName(i: number): string {
    return this.files[i] ?? '';
  }

  get(key: Hash64): IdEntry | undefined {
    if (!this.seen.mayHold(key)) return undefined;
    const t = this.table;
    const s = t.slot(key);
    if (s === undefined) return undefined;
    const ch = t.getU(s, ID_U32.contentHi);
    const cl = t.getU(s, ID_U32.contentLo);
    const line = t.getU(s, ID_U32.line);
    const f = t.getU(s, ID_U32.file);
    if (!(f & LINE_KIND)) return { kind: 'digest', content: { hi: ch, lo: cl }, line, file: f };
    return { kind: 'line', fingerprint: ch, byteOffset: ((f >>> 16) & 0x7fff) * TWO32 + cl, line, file: f & 0xffff };
  }

  /** Remember the first occurrence of an absent `key`; true when older entries were forgotten. */
  add(key: Hash64, e: IdEntry): boolean {
    return e.kind === 'digest'
      ? this.addDigest(key, e.content.hi, e.content.lo, e.line, e.file)
      : this.addLine(key, e.fingerprint, e.byteOffset, e.line, e.file);
  }

  /** {@link add} of a `digest` entry, from its words (no entry object per event). */
  addDigest(key: Hash64, hi: number, lo: number, line: number, file: number): boolean {
    this.seen.add(key, this.table.size);
    const t = this.table;
    const s = t.add(key);
    t.setU(s, ID_U32.line, Math.max(1, Math.min(line, 0xffffffff)));
    t.setU(s, ID_U32.contentHi, hi);
    t.setU(s, ID_U32.contentLo, lo);
    t.setU(s, ID_U32.file, file & 0x7fffffff);
    return t.forgot > 0;
  }

  /** {@link add} of a `line` entry, from its fields. */
  addLine(key: Hash64, fingerprint: number, byteOffset: number, line: number, file: number): boolean {
    this.seen.add(key, this.table.size);
    const t = this.table;
    const s = t.add(key);
    t.setU(s, ID_U32.line, Math.max(1, Math.min(line, 0xffffffff)));
    t.setU(s, ID_U32.contentHi, fingerprint);
    t.setU(s, ID_U32.contentLo, byteOffset % TWO32);
    t.setU(s, ID_U32.file, (LINE_KIND | (Math.floor(byteOffset / TWO32) << 16) | file) >>> 0);
    return t.forgot > 0;
  }
}
