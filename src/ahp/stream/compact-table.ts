/**
 * Compact per-entry memory of the AHP stream analyzers (event rows, answered request ids): a numeric key (a 52-bit cut of a SHA-256,
 * {@link keyOf}) -> a fixed row of unsigned 32-bit and float64 columns, stored in two flat
 * typed arrays. No strings and no objects are held per entry; the only per-entry JS object is
 * the index `Map` entry (key -> row slot).
 *
 * Unlike the AEP marker table (src/aep/stream/marker-table.ts, generations), this table forgets
 * exactly one entry at a time and oldest first ({@link CompactTable.oldestKey} in insertion
 * order), because the AHP caps (`--max-events`) are documented and tested that way. The caller
 * enforces the cap; the table only grows its arrays (by doubling) up to the largest number of
 * entries held at once and reuses freed rows.
 *
 * Memory per entry: 4 bytes per `u32` column, 8 bytes per `f64` column, plus the index entry
 * (about 40 bytes).
 */
import { digest } from '../../core/canonical.ts';

const MIN_ROWS = 64;

/** Keys computed lately (a response's id follows its request's; a parent is usually recent). */
const recentKeys = new Map<string, number>();
const RECENT_KEYS = 4096;

/** A numeric table key for `s`: the first 52 bits of its SHA-256 (exact in a float64). */
export function keyOf(s: string): number {
  let k = recentKeys.get(s);
  if (k !== undefined) return k;
  const d = digest(s);
  k = d.readUInt32BE(0) * 0x100000 + (d.readUInt32BE(4) >>> 12);
  if (recentKeys.size >= RECENT_KEYS) recentKeys.clear();
  recentKeys.set(s, k);
  return k;
}

/** The 64 bits of a base64url digest (see digest.ts `valueDigest`) as two unsigned 32-bit words. */
export function digestWords(digest: string): [number, number] {
  const b = Buffer.from(digest, 'base64url');
  return [b.readUInt32BE(0), b.readUInt32BE(4)];
}

/** A growable key -> fixed-row table (see the module comment). */
export class CompactTable {
  private readonly index = new Map<number, number>();
  private readonly free: number[] = [];
  private rows = 0;
  private capacity = 0;
  private u: Uint32Array;
  private f: Float64Array;

  /** `nu` unsigned 32-bit columns and `nf` float64 columns per entry. */
  constructor(
    private readonly nu: number,
    private readonly nf: number,
  ) {
    this.u = new Uint32Array(0);
    this.f = new Float64Array(0);
  }

  /** Entries held now. */
  get size(): number {
    return this.index.size;
  }

  /** Rows allocated (the high-water mark of entries held at once, rounded up to a power of two). */
  get allocated(): number {
    return this.capacity;
  }

  /** The row slot of `key`, if held. */
  slot(key: number): number | undefined {
    return this.index.get(key);
  }

  /** Add `key` with a zeroed row (the caller checks it is not held yet); its slot. */
  add(key: number): number {
    let s = this.free.pop();
    if (s === undefined) {
      if (this.rows === this.capacity) this.grow();
      s = this.rows++;
    } else {
      this.u.fill(0, s * this.nu, s * this.nu + this.nu);
      this.f.fill(0, s * this.nf, s * this.nf + this.nf);
    }
    this.index.set(key, s);
    return s;
  }

  /** Forget `key` (no-op when not held). */
  delete(key: number): void {
    const s = this.index.get(key);
    if (s === undefined) return;
    this.index.delete(key);
    this.free.push(s);
  }

  /** The key added first among those held, if any. */
  oldestKey(): number | undefined {
    const k = this.index.keys().next();
    return k.done ? undefined : k.value;
  }

  /** Column `c` (u32) of row `s`. */
  getU(s: number, c: number): number {
    return this.u[s * this.nu + c]!;
  }

  /** Set column `c` (u32) of row `s`. */
  setU(s: number, c: number, v: number): void {
    this.u[s * this.nu + c] = v;
  }

  /** Column `c` (f64) of row `s`. */
  getF(s: number, c: number): number {
    return this.f[s * this.nf + c]!;
  }

  /** Set column `c` (f64) of row `s`. */
  setF(s: number, c: number, v: number): void {
    this.f[s * this.nf + c] = v;
  }

  private grow(): void {
    const cap = Math.max(MIN_ROWS, this.capacity * 2);
    const u = new Uint32Array(cap * this.nu);
    u.set(this.u);
    const f = new Float64Array(cap * this.nf);
    f.set(this.f);
    this.u = u;
    this.f = f;
    this.capacity = cap;
  }
}

/**
 * Small strings (event types, elicitation servers and modes) as numbers, at most `cap` distinct
 * ones; code 0 means "not recorded" (the cap was reached: later new names are not kept).
 */
export class Interner {
  private readonly codes = new Map<string, number>();
  private readonly names: string[] = [''];

  constructor(private readonly cap: number) {}

  /** The code of `s` (0 when the table is full and `s` is new). */
  code(s: string): number {
    let c = this.codes.get(s);
    if (c === undefined) {
      if (this.names.length > this.cap) return 0;
      c = this.names.length;
      this.names.push(s);
      this.codes.set(s, c);
    }
    return c;
  }

  /** The string of code `c` (undefined for 0). */
  name(c: number): string | undefined {
    return c === 0 ? undefined : this.names[c];
  }
}
