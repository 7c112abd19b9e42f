/**
 * The library's `signal` option, as Node's own APIs take it (`stream.pipeline`, `fs.readFile`): an aborted signal ends
 * the call with the signal's reason, and what the call opened is released.
 */

/** True for an `AbortSignal` (structurally, as Node's own argument check: another realm's signal is one too). */
export function isAbortSignal(v: unknown): v is AbortSignal {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as AbortSignal).aborted === 'boolean' &&
    typeof (v as AbortSignal).addEventListener === 'function' &&
    typeof (v as AbortSignal).removeEventListener === 'function'
  );
}

/** What an aborted call rejects with: the signal's reason, or an `AbortError` when it has none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** Call `onAbort` once when `signal` aborts (at once if it has); the returned function stops listening. */
export function onAbort(signal: AbortSignal | undefined, handler: () => void): () => void {
  if (!signal) return () => {};
  if (signal.aborted) {
    handler();
    return () => {};
  }
  signal.addEventListener('abort', handler, { once: true });
  return () => signal.removeEventListener('abort', handler);
}

/**
 * `source`'s items until `signal` aborts, then the signal's reason is thrown at once, even while a `next()` is pending
 * (a stream that sends nothing). `release` makes the source settle (destroy a Node stream, cancel a web reader); then,
 * or when `settles` says a pending read ends by itself (our file reads), the source is closed before the throw, so its
 * descriptor is released; any other source is closed without waiting (its own pending `next()` may never end).
 */
export async function* abortable<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal,
  release?: () => void,
  settles = release !== undefined,
): AsyncGenerator<T> {
  if (signal.aborted) throw abortReason(signal);
  const it = source[Symbol.asyncIterator]();
  // one listener for the whole iteration (a reaction per chunk on one long-lived promise would pile up)
  let interrupt: ((reason: unknown) => void) | undefined;
  const stop = onAbort(signal, () => interrupt?.(abortReason(signal)));
  let finished = false;
  try {
    for (;;) {
      const r = await new Promise<IteratorResult<T>>((resolve, reject) => {
        interrupt = reject;
        it.next().then(resolve, (e) => (signal.aborted ? undefined : reject(e)));
      });
      interrupt = undefined;
      if (r.done) {
        finished = true;
        return;
      }
      yield r.value;
      if (signal.aborted) throw abortReason(signal);
    }
  } finally {
    stop();
    if (!finished) {
      if (signal.aborted) release?.();
      const closed = Promise.resolve()
        .then(() => it.return?.())
        .catch(() => undefined);
      if (settles || !signal.aborted) await closed;
    }
  }
}
