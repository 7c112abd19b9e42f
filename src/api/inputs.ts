/** The library's inputs (paths, text, bytes, Node or web streams) as pipeline InputSpecs, in the order given. */
import { existsSync, statSync } from 'node:fs';
import { abortable, abortReason, onAbort } from '../core/abort.ts';
import { readFileChunks } from '../core/file-chunks.ts';
import { fileURLToPath } from 'node:url';
import { InputError, type InputSpec } from '../core/pipeline.ts';
import { described } from './check-options.ts';

/** A web `ReadableStream` of bytes or text (`fetch` bodies, `Blob.stream()`), structurally. */
export interface WebReadableStream {
  getReader(): {
    read(): Promise<{ done: boolean; value?: Uint8Array | string }>;
    releaseLock(): void;
    /** Called when the run's `signal` aborts, so that a pending read ends. */
    cancel?(reason?: unknown): Promise<void>;
  };
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

async function* fromWeb(s: WebReadableStream, signal?: AbortSignal): AsyncIterable<Uint8Array | string> {
  const reader = s.getReader();
  // an abort cancels the stream, as Node's own consumers of a web stream do: a pending read then ends
  const stop = onAbort(signal, () => void reader.cancel?.(abortReason(signal!)).catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value !== undefined) yield value;
    }
  } finally {
    stop();
    reader.releaseLock();
  }
}

/** The stream's chunks, each checked to be bytes or text. @throws TypeError naming what another chunk was */
async function* chunksOf(s: AsyncIterable<unknown>): AsyncIterable<Uint8Array | string> {
  for await (const chunk of s) {
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array))
      throw new TypeError(
        `the stream yielded ${described(chunk)}: a stream yields bytes (Uint8Array, Buffer) or strings${
          typeof chunk === 'object' && chunk !== null
            ? ' (events as objects go one by one to createSession().check)'
            : ''
        }`,
      );
    yield chunk;
  }
}

function streamOf(s: StreamInput, signal: AbortSignal | undefined): () => AsyncIterable<Uint8Array | string> {
  // with a signal a web stream is read by a reader of ours, which an abort can cancel (its async iterator would wait)
  const web = isWeb(s) && (signal !== undefined || !isAsyncIterable(s));
  const open = () => chunksOf(web || !isAsyncIterable(s) ? fromWeb(s as WebReadableStream, signal) : s);
  if (!signal) return open;
  // a Node stream is destroyed on abort, as on an early `break` out of its iteration; another iterable is left to end
  const destroy = (s as { destroy?: unknown }).destroy;
  const release = !web && typeof destroy === 'function' ? () => void destroy.call(s) : undefined;
  return () => abortable(open(), signal, release, web || release !== undefined);
}

function fileInput(path: string | URL, source: string | undefined, signal: AbortSignal | undefined): InputSpec {
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
  // a pending read ends by itself: the descriptor is closed before an abort rejects
  const open = signal ? () => abortable(readFileChunks(p), signal, undefined, true) : () => readFileChunks(p);
  const spec: InputSpec = { source: name, size, open };
  if (regular) spec.path = p;
  return spec;
}

const EXPECTED =
  'a path, a file: URL, bytes (Uint8Array, Buffer), a stream, or { path | text | bytes | stream, source? }';
const isPath = (p: unknown): p is string | URL => typeof p === 'string' || p instanceof URL;

/** What is wrong with input `input` (`undefined`: nothing), as the end of a sentence that starts with its name. */
function inputProblem(input: unknown): string | undefined {
  if (input instanceof URL && input.protocol !== 'file:')
    return `is a ${input.protocol} URL: only a file: URL names a file (fetch it and pass the response body as a stream)`;
  // a URL written as a string names no file (a file of that name, however odd, is still read)
  const scheme = typeof input === 'string' ? /^([a-z][a-z0-9+.-]*:)\/\//i.exec(input)?.[1]?.toLowerCase() : undefined;
  if (scheme !== undefined && !existsSync(input as string))
    return scheme === 'file:'
      ? 'is a file: URL as a string: a string input is a path; pass new URL(...) or the path'
      : `is a ${scheme} URL: only a file: URL names a file (fetch it and pass the response body as a stream)`;
  if (typeof input === 'string' && (input.includes('\n') || /^\s*[{[].*[}\]]\s*$/.test(input)) && !existsSync(input))
    return 'is JSON text, not a path: a string input names a file; pass text as { text }';
  if (isPath(input) || input instanceof Uint8Array || isAsyncIterable(input) || isWeb(input)) return undefined;
  const proto = typeof input === 'object' && input !== null ? Object.getPrototypeOf(input) : undefined;
  if (proto !== Object.prototype && proto !== null) return `is ${described(input)}: expected ${EXPECTED}`;
  const o = input as Record<string, unknown>;
  if (o.source !== undefined && typeof o.source !== 'string')
    return `has a source that is ${described(o.source)}, not a string`;
  if ('path' in o)
    return isPath(o.path)
      ? inputProblem(o.path)
      : `has a path that is ${described(o.path)}, not a string or a file: URL`;
  if ('text' in o)
    return typeof o.text === 'string' ? undefined : `has a text that is ${described(o.text)}, not a string`;
  if ('bytes' in o)
    return o.bytes instanceof Uint8Array
      ? undefined
      : `has bytes that are ${described(o.bytes)}, not a Uint8Array or Buffer`;
  if ('stream' in o)
    return isAsyncIterable(o.stream) || isWeb(o.stream)
      ? undefined
      : `has a stream that is ${described(o.stream)}, not a Node Readable, async iterable or web ReadableStream`;
  return `is an object with none of path, text, bytes, stream: expected ${EXPECTED}`;
}

/** Check the shape of each input now (reading waits for the run). @throws TypeError naming the input and what it is. */
export function checkInputs(inputs: unknown): void {
  const list: readonly unknown[] = Array.isArray(inputs) ? inputs : [inputs];
  list.forEach((input, i) => {
    const problem = inputProblem(input);
    if (problem) throw new TypeError(`input ${i + 1} ${problem}`);
  });
}

/**
 * Pipeline inputs framed by `framing(source)`, checked by {@link checkInputs} first; with `signal`, reading ends with its
 * reason when it aborts. @throws InputError (unreadable file)
 */
export function toInputSpecs(
  inputs: Inputs,
  framing: (source: string) => 'jsonl' | 'document',
  signal?: AbortSignal,
): InputSpec[] {
  checkInputs(inputs);
  const list: readonly Input[] = Array.isArray(inputs) ? inputs : [inputs as Input];
  const unnamed = (i: number) => (list.length === 1 ? '<input>' : `<input ${i + 1}>`);
  return list.map((input, i): InputSpec => {
    let spec: InputSpec;
    if (isPath(input)) spec = fileInput(input, undefined, signal);
    else if (input instanceof Uint8Array) spec = bytesInput(unnamed(i), input);
    else if (isAsyncIterable(input) || isWeb(input)) spec = { source: unnamed(i), open: streamOf(input, signal) };
    else if ('path' in input) spec = fileInput(input.path, input.source, signal);
    else if ('text' in input) spec = bytesInput(input.source ?? unnamed(i), Buffer.from(input.text, 'utf8'));
    else if ('bytes' in input) spec = bytesInput(input.source ?? unnamed(i), input.bytes);
    else spec = { source: input.source ?? unnamed(i), open: streamOf(input.stream, signal) };
    spec.framing = framing(spec.source);
    return spec;
  });
}

function bytesInput(source: string, bytes: Uint8Array): InputSpec {
  return {
    source,
    size: bytes.byteLength,
    open: async function* () {
      yield bytes;
    },
  };
}
