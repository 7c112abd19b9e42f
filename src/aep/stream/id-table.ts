/**
 * The identity memory of the stream rules: for each `(source, id)` seen, a 64-bit content
 * digest and where the event was (AEP-0001 §7.4: dedupe on `(source, id)`).
 *
 * Compact by construction: a `(source, id)` key is kept as a 64-bit hash, never as strings,
 * in a {@link MarkerTable} (open-addressing tables over typed arrays, 25 bytes a slot, at most
 * 3/4 full), so the default cap of 5 million ids costs about 200 MB at most, not gigabytes of
 * Map entries.
 * Keys are cut from SHA-256: a crafted stream cannot aim for false matches, and an accidental
 * one among 5 million ids has odds of about 1 in 10^6. The content is kept as one of:
 * - `digest`: 64 bits of the SHA-256 of the canonical event (inputs that cannot be read again);
 * - `line`: where the line is in a regular file and its FNV-1a fingerprint; the tracker reads
 *   the line back when its `(source, id)` repeats and compares exactly. Packed into the same
 *   four columns: offset low 32 bits in one column, offset high 15 bits and a 16-bit file index
 *   beside the entry-kind bit in the file column (so lines at offsets up to 2^47 of the first
 *   65,536 inputs; the tracker keeps digests for anything beyond).
 *
 * Bounded by `maxIds` with the table's generations: at most `maxIds` entries are held, the most
 * recent `maxIds / 2` at least, and forgetting happens oldest first, half a cap at a time.
 */
import { MarkerTable } from './marker-table.ts';

/** A 64-bit hash as two 32-bit halves. */
export interface Hash64 {
  hi: number;
  lo: number;
}

/** Hash64 from the first 8 bytes of a digest. */
export function hash64(digest: Uint8Array): Hash64 {
  return {
    hi: ((digest[0] << 24) | (digest[1] << 16) | (digest[2] << 8) | digest[3]) >>> 0,
    lo: ((digest[4] << 24) | (digest[5] << 16) | (digest[6] << 8) | digest[7]) >>> 0,
  };
}

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
      /** FNV-1a of the line's text (tells that the line read back is still the one read). */
      fnv: number;
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

function unpack(ch: number, cl: number, line: number, f: number): IdEntry {
  if (!(f & LINE_KIND)) return { kind: 'digest', content: { hi: ch, lo: cl }, line, file: f };
  return { kind: 'line', fnv: ch, byteOffset: ((f >>> 16) & 0x7fff) * TWO32 + cl, line, file: f & 0xffff };
}

/** The `(source, id)` -> first-occurrence memory, capped at `maxIds` entries. */
export class AepIdTable {
  /** Columns: content hi, content lo (or fnv, offset low bits), line, file (kind bit, offset high bits, input). */
  private readonly table: MarkerTable;
  private readonly files: string[] = [];
  private readonly fileIds = new Map<string, number>();

  constructor(readonly maxIds: number) {
    this.table = new MarkerTable(4, 0, maxIds);
  }

  /** Entries held now (at most `maxIds`). */
  get size(): number {
    return this.table.size;
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
    const row = this.table.get(key);
    return row && unpack(row.u[0], row.u[1], row.u[2], row.u[3]);
  }

  /**
   * Remember the first occurrence of an absent `key`. Returns true when this forgot older
   * entries (the cap was reached).
   */
  add(key: Hash64, e: IdEntry): boolean {
    const line = Math.max(1, Math.min(e.line, 0xffffffff));
    const u =
      e.kind === 'digest'
        ? [e.content.hi, e.content.lo, line, e.file & 0x7fffffff]
        : [e.fnv, e.byteOffset % TWO32, line, (LINE_KIND | (Math.floor(e.byteOffset / TWO32) << 16) | e.file) >>> 0];
    return this.table.put(key, { u, f: [] });
  }
}
