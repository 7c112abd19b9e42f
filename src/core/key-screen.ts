/**
 * KeyScreen: one bit per `key.hi & (bits - 1)` of every key a table was given (never cleared), in front of the table: a
 * clear bit answers "absent" without the table's reads. It doubles by copying from 2^20 bits while under 16 bits a key;
 * given a byte limit it stops there and passes more keys as it fills.
 */
import type { Hash64 } from './canonical.ts';

/** Bits a held key at least (each doubling keeps the density). */
const BITS_PER_KEY = 16;

/** A never-cleared one-bit screen of the keys added to a table (see the module comment). */
export class KeyScreen {
  private bits = new Int32Array(1 << 15);

  /** `maxBytes`: the bits double no further than this (the start size, 128 KiB, at least). */
  constructor(private readonly maxBytes = Infinity) {}

  /** False when `key` was never {@link add}ed (the table need not be asked); true when it may have been. */
  mayHold(key: Hash64): boolean {
    const bits = this.bits;
    const b = key.hi & ((bits.length << 5) - 1);
    return (bits[b >>> 5]! & (1 << (b & 31))) !== 0;
  }

  /** Record `key`; `held`: the keys the table holds now (the bits double first past one key per 16 bits). */
  add(key: Hash64, held: number): void {
    let bits = this.bits;
    if (held * BITS_PER_KEY >= bits.length << 5 && bits.byteLength < this.maxBytes) {
      const wider = new Int32Array(bits.length * 2);
      wider.set(bits);
      wider.set(bits, bits.length);
      this.bits = bits = wider;
    }
    const b = key.hi & ((bits.length << 5) - 1);
    bits[b >>> 5]! |= 1 << (b & 31);
  }

  /** Bytes the bits take. */
  get byteLength(): number {
    return this.bits.byteLength;
  }
}
