/**
 * gzip input (RFC 1952), told by its magic bytes on files and stdin alike; locations are those of the decompressed
 * text, and concatenated members are one stream (§2.2). A corrupt stream is one `jsonl/gzip-corrupt`: the complete
 * lines before it are checked, the line it cut is dropped (it would be a second, misleading finding).
 */
import { createRequire } from 'node:module';

/** What {@link gunzipIfCompressed} reports about one input. */
export interface GzipState {
  compressed: boolean;
  /** Set when the stream was truncated or corrupt: zlib's reason and the decompressed bytes before it. */
  corrupt?: { reason: string; decompressedBytes: number; droppedBytes: number };
}

const toBuffer = (p: Uint8Array | string): Buffer =>
  typeof p === 'string'
    ? Buffer.from(p, 'utf8')
    : Buffer.isBuffer(p)
      ? p
      : Buffer.from(p.buffer, p.byteOffset, p.byteLength);

/** `input`, decompressed when it starts with the gzip magic; zlib errors end it and go to `state`. */
export async function* gunzipIfCompressed(
  input: AsyncIterable<Uint8Array | string>,
  state: GzipState,
): AsyncGenerator<Uint8Array | string> {
  const it = input[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headLen = 0;
  let done = false;
  while (headLen < 2) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    // copied: a file's chunks share one buffer (src/core/file-chunks.ts), and the next read is asked for below
    const b = Buffer.from(toBuffer(r.value));
    head.push(b);
    headLen += b.length;
  }
  const first = head.length === 1 ? head[0]! : Buffer.concat(head);
  const rest = async function* () {
    if (done) return;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  };
  if (!(first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b)) {
    if (first.length) yield first;
    yield* rest();
    return;
  }
  state.compressed = true;
  // node:zlib loads only for a compressed input (a few ms of every other start)
  const { createGunzip } = createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
  const gunzip = createGunzip();
  // our input's own failure (an I/O error) is not a corrupt stream: kept apart and rethrown
  let inputError: { e: unknown } | undefined;
  const feed = async (chunk: Buffer): Promise<boolean> => {
    if (gunzip.destroyed) return false; // zlib gave up: the rest is not read
    if (!gunzip.write(chunk))
      await new Promise((r) => {
        gunzip.once('drain', r);
        gunzip.once('close', r);
      });
    return !gunzip.destroyed;
  };
  void (async () => {
    try {
      if (!(await feed(first))) return;
      // copied: zlib may still hold a written chunk when the next is read into the same buffer
      for await (const chunk of rest()) if (!(await feed(Buffer.from(toBuffer(chunk))))) return;
    } catch (e) {
      inputError = { e };
      gunzip.destroy(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    gunzip.end();
  })();
  // hold the text after the last newline until the next chunk: a cut line is dropped, not checked
  let tail: Buffer | undefined;
  let total = 0;
  try {
    for await (const out of gunzip as AsyncIterable<Buffer>) {
      total += out.length;
      const nl = out.lastIndexOf(0x0a);
      if (nl === -1) {
        tail = tail ? Buffer.concat([tail, out]) : out;
        continue;
      }
      const whole = tail ? Buffer.concat([tail, out.subarray(0, nl + 1)]) : out.subarray(0, nl + 1);
      tail = nl + 1 < out.length ? Buffer.from(out.subarray(nl + 1)) : undefined;
      yield whole;
    }
  } catch (e) {
    if (inputError) throw inputError.e;
    const dropped = tail?.length ?? 0;
    state.corrupt = {
      reason: (e as Error).message || String(e),
      decompressedBytes: total - dropped,
      droppedBytes: dropped,
    };
    return;
  }
  if (inputError) throw inputError.e;
  if (tail) yield tail;
}
