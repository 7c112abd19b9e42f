/**
 * The identity analyzer (AEP-0001 §5.1 #2, §7.4): every event's `(source, id)` is compared with
 * its first occurrence. A repeat with the same canonical content is a redelivery, and the
 * model then runs no other analyzer on it (model.ts), so it is never counted twice.
 *
 * Keeps: `(source, id)` -> where the first occurrence was, in a compact table ({@link AepIdTable}
 * over src/core/table.ts; cap `maxIds`, the oldest half forgotten first, noted in the {@link AepCapLog}),
 * with either a 64-bit digest of its canonical content or, when it came from a regular file,
 * only a fingerprint of the line: a repeat then reads the first line back
 * ({@link ParsedEvent.reread}) and compares exactly (same bytes, else same canonical text).
 * Most events never repeat, so this saves canonicalising and hashing every line; standard
 * input and pipes keep the digest. Also keeps the run's input names (shared as
 * {@link InputNames} by the compact tables of the other analyzers). Releases nothing.
 */
import { lineFingerprint, sameAsReadBack, type Hash64 } from '../../core/canonical.ts';
import { markOf, type Mark } from '../../core/mark.ts';
import type { ParsedEvent } from '../../core/rule.ts';
import { attr, type AepEvent } from '../event.ts';
import type { AepCapLog } from './budget.ts';
import { contentHash, idKeyHash } from './canonical.ts';
import type { InputNames } from './markers.ts';
import { CompactTable } from '../../core/table.ts';

/** What the table remembers about the first event of a `(source, id)`. */
export type IdEntry = {
  /** 1-based line. */
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

/**
 * The u32 columns of an identity row. `digest` entries: the content digest's two words; `line`
 * entries: the line's fingerprint and the offset's low 32 bits. `file`: the entry-kind bit (31), for
 * `line` entries the offset's high 15 bits (16-30) beside a 16-bit input index, else the input.
 */
const ID_U32 = { contentHi: 0, contentLo: 1, line: 2, file: 3, count: 4 } as const;

/**
 * The `(source, id)` -> first-occurrence memory (AEP-0001 §7.4), capped at `maxIds` entries: one
 * {@link CompactTable} row of {@link ID_U32} per key (16 bytes of columns, about 38 bytes an
 * entry with key, order links and index), so 5 million ids cost about 190 MB; the run's memory
 * budget (`--max-state-mb`) bounds them, and `maxIds` too when given. The 64-bit keys are a keyed SipHash-1-3 (`textKey`): a crafted stream cannot aim for
 * false matches, and an accidental one among 5 million ids has odds of about 1 in 10^6. A `maxIds` cap
 * forgets with `forget: 'half'`: at most `maxIds` held, the most recent `maxIds / 2` at least.
 */
export class AepIdTable {
  private readonly table: CompactTable;
  private readonly files: string[] = [];
  private readonly fileIds = new Map<string, number>();

  constructor(readonly maxIds: number) {
    this.table = new CompactTable({ u32: ID_U32.count, f64: 0, cap: maxIds, forget: 'half' });
  }

  /** Entries held now (at most `maxIds`). */
  get size(): number {
    return this.table.size;
  }

  /** Bytes of the entries held (the memory budget, src/core/state-budget.ts). */
  bytes(): number {
    return this.table.bytes();
  }

  /** Forget the oldest entry (the memory budget); false when none is held. */
  forgetOldest(): boolean {
    const s = this.table.oldest();
    if (s === undefined) return false;
    this.table.deleteSlot(s);
    return true;
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

  /** The input name of a file index. */
  fileName(i: number): string {
    return this.files[i] ?? '';
  }

  /** The first occurrence of `key`, if still remembered. */
  get(key: Hash64): IdEntry | undefined {
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

  /**
   * Remember the first occurrence of an absent `key`. Returns true when this forgot older
   * entries (the cap was reached).
   */
  add(key: Hash64, e: IdEntry): boolean {
    const t = this.table;
    const s = t.add(key);
    t.setU(s, ID_U32.line, Math.max(1, Math.min(e.line, 0xffffffff)));
    if (e.kind === 'digest') {
      t.setU(s, ID_U32.contentHi, e.content.hi);
      t.setU(s, ID_U32.contentLo, e.content.lo);
      t.setU(s, ID_U32.file, e.file & 0x7fffffff);
    } else {
      t.setU(s, ID_U32.contentHi, e.fingerprint);
      t.setU(s, ID_U32.contentLo, e.byteOffset % TWO32);
      t.setU(s, ID_U32.file, (LINE_KIND | (Math.floor(e.byteOffset / TWO32) << 16) | e.file) >>> 0);
    }
    return t.forgot > 0;
  }
}

/** What the identity analyzer found about one event. */
export interface IdentityFacts {
  /** The first occurrence, when this event repeats it exactly (canonical content): then no other fact is set. */
  redelivery?: Mark;
  /** The first occurrence, when this event reuses its `(source, id)` with other content. */
  collision?: Mark;
  /** The first occurrence, when this event repeats its `(source, id)` but that line could not be read back to compare. */
  unverifiable?: Mark;
}

/** `(source, id)` identity and dedupe for one run. */
export class IdentityAnalyzer {
  private readonly ids: AepIdTable;
  /** How to read back lines of re-readable inputs, by input index. */
  private readonly rereaders = new Map<number, (byteOffset: number) => string | undefined>();

  constructor(
    private readonly maxIds: number,
    private readonly caps: AepCapLog,
  ) {
    this.ids = new AepIdTable(maxIds);
  }

  /** The `(source, id)` table (a holder of the memory budget). */
  get idTable(): AepIdTable {
    return this.ids;
  }

  /** The run's input names (for the compact tables of the other analyzers). */
  get names(): InputNames {
    return this.ids;
  }

  /** `(source, id)` entries held now. */
  get size(): number {
    return this.ids.size;
  }

  /** Compare `ev` with the first occurrence of its `(source, id)`; true when it is a redelivery. */
  observe(ev: AepEvent, facts: IdentityFacts): boolean {
    const key = idKeyHash(attr(ev, 'source')!, attr(ev, 'id')!);
    const first = this.ids.get(key);
    if (!first) {
      if (this.ids.add(key, this.entry(ev))) this.caps.note('maxIds', this.maxIds, () => markOf(ev));
      return false;
    }
    const firstAt: Mark = { file: this.ids.fileName(first.file), line: first.line };
    const same = this.sameContent(first, ev);
    if (same === true) {
      facts.redelivery = firstAt;
      return true;
    }
    if (same === false) facts.collision = firstAt;
    else facts.unverifiable = firstAt;
    return false;
  }

  /**
   * What the table keeps of a first occurrence. From a regular file: where the line is and
   * its fingerprint, since the line can be read back when its `(source, id)` repeats; otherwise
   * the digest of its canonical content.
   */
  private entry(ev: ParsedEvent): IdEntry {
    const file = this.ids.fileIndex(ev.source);
    if (ev.reread && file < MAX_LINE_FILES && ev.byteOffset < MAX_LINE_OFFSET) {
      this.rereaders.set(file, ev.reread);
      return { kind: 'line', fingerprint: lineFingerprint(ev.text), byteOffset: ev.byteOffset, line: ev.line, file };
    }
    return { kind: 'digest', content: contentHash(ev), line: ev.line, file };
  }

  /**
   * Whether `ev` has the same canonical content as the first occurrence `first`: compared
   * exactly when the first line can be read back, by digest otherwise. `undefined` when the
   * first line cannot be read back as it was (the file changed while it was checked).
   */
  private sameContent(first: IdEntry, ev: AepEvent): boolean | undefined {
    if (first.kind === 'digest') {
      const c = contentHash(ev);
      return c.hi === first.content.hi && c.lo === first.content.lo;
    }
    return sameAsReadBack(this.rereaders.get(first.file)?.(first.byteOffset), first.fingerprint, ev);
  }
}
