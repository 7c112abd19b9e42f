/** The library's inputs (paths, text, bytes, Node or web streams) as pipeline InputSpecs, in the order given. */
import { statSync } from 'node:fs';
import { readFileChunks } from '../core/file-chunks.ts';
import { fileURLToPath } from 'node:url';
import { InputError, type InputSpec } from '../core/pipeline.ts';

/** A web `ReadableStream` of bytes or text (`fetch` bodies, `Blob.stream()`), structurally. */
export interface WebReadableStream {
  getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array | string }>; releaseLock(): void };
}

/** A byte stream: a Node `Readable` (or any async iterable of chunks) or a web `ReadableStream`. */
export type StreamInput = AsyncIterable<Uint8Array | string> | WebReadableStream;

/**
 * One input: a path (`string` or `file:` URL), bytes, a stream, or `{ text bytes stream path }` with a `source` name
 * (which also picks the AHP binding); unnamed inputs are `<input>` / `<input N>`.
 */
export type Input =
  | string
  | URL
  | Uint8Array
  | StreamInput
  | { path: string | URL; source?: string }
  | { text: string; source?: string }
  | { bytes: Uint8Array; source?: string }
  | { stream: StreamInput; source?: string };

/** One input or several (one stream, in order). */
export type Inputs = Input | readonly Input[];

const isWeb = (s: unknown): s is WebReadableStream => typeof (s as WebReadableStream | null)?.getReader === 'function';
const isAsyncIterable = (s: unknown): s is AsyncIterable<Uint8Array | string> =>
  s != null && typeof (s as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';

async function* fromWeb(s: WebReadableStream): AsyncIterable<Uint8Array | string> {
  const reader = s.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value !== undefined) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** What a value is, for a message: `the number 42`, `an object`, `null`. */
function described(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return `the ${typeof v} ${String(v)}`;
  return Array.isArray(v) ? 'an array' : `a value of type ${typeof v}`;
}

/** The stream's chunks, each checked to be bytes or text. @throws TypeError naming what another chunk was */
async function* chunksOf(s: AsyncIterable<unknown>): AsyncIterable<Uint8Array | string> {
  for await (const chunk of s) {
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array))
      throw new TypeError(
        `the stream yielded ${described(chunk)}: a stream yields bytes (Uint8Array, Buffer) or strings`,
      );
    yield chunk;
  }
}

function streamOf(s: StreamInput): () => AsyncIterable<Uint8Array | string> {
  return () =>
    chunksOf(isWeb(s) && !isAsyncIterable(s) ? fromWeb(s) : isAsyncIterable(s) ? s : fromWeb(s as WebReadableStream));
}

function fileInput(path: string | URL, source: string | undefined): InputSpec {
  const p = path instanceof URL ? fileURLToPath(path) : path;
  const name = source ?? p;
  let size: number;
  let regular: boolean;
  try {
    const st = statSync(p);
    if (st.isDirectory()) throw new Error('is a directory');
    size = st.size;
    regular = st.isFile();
  } catch (e) {
    throw new InputError(name, e);
  }
  const spec: InputSpec = { source: name, size, open: () => readFileChunks(p) };
  if (regular) spec.path = p;
  return spec;
}

/** Pipeline inputs framed by `framing(source)`. @throws InputError (unreadable file); TypeError (no input). */
export function toInputSpecs(inputs: Inputs, framing: (source: string) => 'jsonl' | 'document'): InputSpec[] {
  const list: readonly Input[] = Array.isArray(inputs) ? inputs : [inputs as Input];
  const unnamed = (i: number) => (list.length === 1 ? '<input>' : `<input ${i + 1}>`);
  return list.map((input, i): InputSpec => {
    let spec: InputSpec;
    if (typeof input === 'string' || input instanceof URL) spec = fileInput(input, undefined);
    else if (input instanceof Uint8Array)
      spec = {
        source: unnamed(i),
        size: input.byteLength,
        open: async function* () {
          yield input;
        },
      };
    else if (isAsyncIterable(input) || isWeb(input)) spec = { source: unnamed(i), open: streamOf(input) };
    else if (input && typeof input === 'object' && 'path' in input) spec = fileInput(input.path, input.source);
    else if (input && typeof input === 'object' && 'text' in input && typeof input.text === 'string') {
      const bytes = Buffer.from(input.text, 'utf8');
      spec = {
        source: input.source ?? unnamed(i),
        size: bytes.length,
        open: async function* () {
          yield bytes;
        },
      };
    } else if (input && typeof input === 'object' && 'bytes' in input && input.bytes instanceof Uint8Array) {
      const bytes = input.bytes;
      spec = {
        source: input.source ?? unnamed(i),
        size: bytes.byteLength,
        open: async function* () {
          yield bytes;
        },
      };
    } else if (input && typeof input === 'object' && 'stream' in input)
      spec = { source: input.source ?? unnamed(i), open: streamOf(input.stream) };
    else throw new TypeError(`input ${i + 1} is not a path, URL, text, bytes or stream`);
    spec.framing = framing(spec.source);
    return spec;
  });
}
