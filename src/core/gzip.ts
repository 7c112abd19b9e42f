/**
 * gzip input (RFC 1952), told by its magic bytes on files and stdin alike; locations are those of the decompressed
 * text, and concatenated members are one stream (§2.2). Members are framed here (header §2.3.1, raw deflate through
 * zlib, trailer CRC32 and ISIZE) so the text of every complete member is read whatever follows it. A corrupt stream is
 * one `jsonl/gzip-corrupt`: the complete lines before it are checked, the line it cut is dropped (it would be a
 * second, misleading finding). Bytes after the last complete member that are not gzip end the text there, every line
 * of it checked; NUL bytes alone there are padding (tar, tape blocks) and ignored, as gzip(1) and zlib do.
 */
import { createRequire } from 'node:module';

type Zlib = typeof import('node:zlib');

/** What {@link gunzipIfCompressed} reports about one input. */
export interface GzipState {
  compressed: boolean;
  /**
   * Set when the stream was truncated or corrupt: zlib's reason and the decompressed bytes before it; `trailing` when
   * the members were whole and what follows them is not gzip (nothing was dropped).
   */
  corrupt?: {
    reason: string;
    decompressedBytes: number;
    droppedBytes: number;
    trailing?: boolean;
    /** The stream was cut inside a line past the line cap, passed on as it came: its last line is the cut one. */
    overLong?: boolean;
  };
}

const toBuffer = (p: Uint8Array | string): Buffer =>
  typeof p === 'string'
    ? Buffer.from(p, 'utf8')
    : Buffer.isBuffer(p)
      ? p
      : Buffer.from(p.buffer, p.byteOffset, p.byteLength);

/** The stream's damage, in zlib's words where zlib has them. */
class GzipDamage extends Error {
  constructor(
    message: string,
    readonly trailing = false,
  ) {
    super(message);
  }
}

const EOF = 'unexpected end of file';

/** The input's bytes in order, with bytes put back; every chunk copied (a file's chunks share one buffer). */
class Pull {
  private readonly held: Buffer[] = [];

  constructor(
    first: Buffer,
    private readonly it: AsyncIterator<Uint8Array | string> | undefined,
  ) {
    if (first.length) this.held.push(first);
  }

  async next(): Promise<Buffer | undefined> {
    const h = this.held.pop();
    if (h) return h;
    if (!this.it) return undefined;
    const r = await this.it.next();
    return r.done ? undefined : Buffer.from(toBuffer(r.value));
  }

  unshift(b: Buffer): void {
    if (b.length) this.held.push(b);
  }

  /** `n` bytes, fewer only at the end of the input. */
  async take(n: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let len = 0;
    while (len < n) {
      const b = await this.next();
      if (!b) break;
      const use = Math.min(b.length, n - len);
      parts.push(b.subarray(0, use));
      this.unshift(b.subarray(use));
      len += use;
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** Skip to past the next NUL byte (§2.3.1 FNAME, FCOMMENT); the bytes skipped go to `seen`. */
  async skipZeroTerminated(seen: (b: Buffer) => void): Promise<void> {
    for (let b = await this.next(); b; b = await this.next()) {
      const z = b.indexOf(0);
      if (z !== -1) {
        seen(b.subarray(0, z + 1));
        this.unshift(b.subarray(z + 1));
        return;
      }
      seen(b);
    }
    throw new GzipDamage(EOF);
  }

  /** True when every byte left is NUL (the input is read to its end); false at the first other byte. */
  async onlyZeros(): Promise<boolean> {
    for (let b = await this.next(); b; b = await this.next()) if (b.some((x) => x !== 0)) return false;
    return true;
  }
}

let CRC_TABLE: Uint32Array | undefined;

/** CRC-32 of RFC 1952 §8 continued from `crc`: zlib's own where Node has it (20.15 and later). */
function crc32(z: Zlib, b: Buffer, crc: number): number {
  if (typeof z.crc32 === 'function') return z.crc32(b, crc);
  if (!CRC_TABLE) {
    CRC_TABLE = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      CRC_TABLE[n] = c >>> 0;
    }
  }
  let c = ~crc >>> 0;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** Read one member header (§2.3.1) whose 10 fixed bytes are `fixed`; @throws GzipDamage. */
async function skipHeader(z: Zlib, src: Pull, fixed: Buffer): Promise<void> {
  if (fixed.length < 10) throw new GzipDamage(EOF);
  if (fixed[2] !== 8) throw new GzipDamage('unknown compression method');
  const flg = fixed[3]!;
  if (flg & 0xe0) throw new GzipDamage('unknown header flags set');
  let crc = crc32(z, fixed, 0);
  const take = async (n: number): Promise<Buffer> => {
    const b = await src.take(n);
    if (b.length < n) throw new GzipDamage(EOF);
    crc = crc32(z, b, crc);
    return b;
  };
  if (flg & 4) await take((await take(2)).readUInt16LE(0));
  const seen = (b: Buffer) => void (crc = crc32(z, b, crc));
  if (flg & 8) await src.skipZeroTerminated(seen);
  if (flg & 16) await src.skipZeroTerminated(seen);
  if (flg & 2) {
    const want = crc & 0xffff;
    if ((await take(2)).readUInt16LE(0) !== want) throw new GzipDamage('header crc mismatch');
  }
}

/** The text of one member's deflate data (RFC 1951), the bytes after it put back on `src`. */
async function* inflateMember(z: Zlib, src: Pull, io: { inputError?: { e: unknown } }): AsyncGenerator<Buffer> {
  const inflate = z.createInflateRaw();
  const closed = new Promise<void>((r) => inflate.once('close', r));
  const feeder = (async () => {
    try {
      for (let b = await src.next(); b; b = await src.next()) {
        const before = inflate.bytesWritten;
        await Promise.race([new Promise<void>((r) => inflate.write(b, () => r())), closed]);
        if (inflate.destroyed) return; // zlib gave up: the rest is not read
        // zlib stops at the end of the deflate data: what it did not take is the trailer and beyond
        const used = inflate.bytesWritten - before;
        if (used < b.length) {
          src.unshift(b.subarray(used));
          return;
        }
      }
      inflate.end();
    } catch (e) {
      io.inputError = { e };
      inflate.destroy(e instanceof Error ? e : new Error(String(e)));
    }
  })();
  yield* inflate as AsyncIterable<Buffer>;
  await feeder;
}

/** The text of every member of `src` in order (§2.2). @throws GzipDamage. */
async function* members(z: Zlib, src: Pull, io: { inputError?: { e: unknown } }): AsyncGenerator<Buffer> {
  for (let member = 0; ; member++) {
    const fixed = await src.take(10);
    if (member > 0) {
      if (fixed.length === 0) return;
      if (fixed[0] !== 0x1f || (fixed.length > 1 && fixed[1] !== 0x8b)) {
        if (!fixed.some((x) => x !== 0) && (await src.onlyZeros())) return;
        throw new GzipDamage('the data after the last complete gzip member is not gzip', true);
      }
    }
    await skipHeader(z, src, fixed);
    let crc = 0;
    let size = 0;
    for await (const out of inflateMember(z, src, io)) {
      crc = crc32(z, out, crc);
      size += out.length;
      yield out;
    }
    const trailer = await src.take(8);
    if (trailer.length < 8) throw new GzipDamage(EOF);
    // zlib's words for a member whose text does not match its trailer (§2.3.1 CRC32, ISIZE)
    if (trailer.readUInt32LE(0) !== crc) throw new GzipDamage('incorrect data check');
    if (trailer.readUInt32LE(4) !== size % 2 ** 32) throw new GzipDamage('incorrect length check');
  }
}

/**
 * `input`, decompressed when it starts with the gzip magic; damage ends it and goes to `state`. `maxLineBytes`: the
 * reader's line cap; a line longer than it is passed on as it comes instead of held to its newline (memory stays
 * bounded, and the reader reports it as it does on any route).
 */
export async function* gunzipIfCompressed(
  input: AsyncIterable<Uint8Array | string>,
  state: GzipState,
  maxLineBytes = Number.POSITIVE_INFINITY,
): AsyncGenerator<Uint8Array | string> {
  const it = input[Symbol.asyncIterator]();
  try {
    yield* gunzipFrom(it, state, maxLineBytes);
  } finally {
    // a reader that stopped early (a binary input, a stopped run) ends its source too: a file is closed, a pipe or an
    // endless device no longer read (the iteration here is by hand, so nothing else would)
    await it.return?.();
  }
}

async function* gunzipFrom(
  it: AsyncIterator<Uint8Array | string>,
  state: GzipState,
  maxLineBytes: number,
): AsyncGenerator<Uint8Array | string> {
  const head: Buffer[] = [];
  let headLen = 0;
  let done = false;
  while (headLen < 2) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    const b = Buffer.from(toBuffer(r.value));
    head.push(b);
    headLen += b.length;
  }
  const first = head.length === 1 ? head[0]! : Buffer.concat(head);
  if (!(first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b)) {
    if (first.length) yield first;
    if (done) return;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    return;
  }
  state.compressed = true;
  // node:zlib loads only for a compressed input (a few ms of every other start)
  const z = createRequire(import.meta.url)('node:zlib') as Zlib;
  // our input's own failure (an I/O error) is not a corrupt stream: kept apart and rethrown
  const io: { inputError?: { e: unknown } } = {};
  // hold the text after the last newline until the next chunk: a cut line is dropped, not checked; a line past the
  // reader's cap is passed on as it comes (the reader reports it at its cap, cut or not, and holds none of it). The
  // held pieces are kept as they came and never joined (joining a long line piece by piece copies it over and over).
  let held: Buffer[] = [];
  let heldBytes = 0;
  let overLong = false;
  let total = 0;
  try {
    for await (const out of members(z, new Pull(first, done ? undefined : it), io)) {
      total += out.length;
      const nl = out.lastIndexOf(0x0a);
      if (nl === -1) {
        if (!overLong && heldBytes + out.length <= maxLineBytes) {
          held.push(out);
          heldBytes += out.length;
          continue;
        }
        overLong = true;
        yield* held;
        held = [];
        heldBytes = 0;
        yield out;
        continue;
      }
      overLong = false;
      yield* held;
      yield out.subarray(0, nl + 1);
      held = nl + 1 < out.length ? [Buffer.from(out.subarray(nl + 1))] : [];
      heldBytes = out.length - nl - 1;
    }
  } catch (e) {
    if (io.inputError) throw io.inputError.e;
    if (!(e instanceof GzipDamage) && !(e as { code?: string }).code?.startsWith('Z_')) throw e;
    // whole members end where their text ends: a last line without its newline is complete, and checked
    const trailing = e instanceof GzipDamage && e.trailing;
    const dropped = trailing ? 0 : heldBytes;
    state.corrupt = {
      reason: (e as Error).message || String(e),
      decompressedBytes: total - dropped,
      droppedBytes: dropped,
    };
    if (trailing) {
      state.corrupt.trailing = true;
      yield* held;
    } else if (overLong) state.corrupt.overLong = true;
    return;
  }
  if (io.inputError) throw io.inputError.e;
  yield* held;
}
