/**
 * The CLI process's V8 heap shape ({@link shapeHeap}): once the young generation reaches a cap it stops growing, and
 * the old generation may grow 30% past what the last full collection kept (why: docs/benchmarks.md §Profile figures
 * behind the code). V8 rejects a code cache made under other flags (src/core/code-cache.ts), so both flags change
 * together, once, late.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The new space (both semi-spaces) at which growth stops: 4 MiB, semi-spaces of 2 MiB. */
export const NEW_SPACE_CAP_BYTES = 4 << 20;

/** How far the old generation may grow past what the last full collection kept, in percent (2-3 more a run). */
export const OLD_GENERATION_GROWTH_PERCENT = 30;

/** What {@link shapeHeap} reads and sets; tests pass their own. */
export interface HeapHooks {
  newSpaceBytes(): number;
  /**
   * Stop the young generation's growth and bound the old one's to `1 + oldPercent / 100`, in one flag change; `lean`:
   * also V8's memory-first sizing (`--optimize-for-size`: the old generation grows by 2 MiB steps, not 8, and the
   * young one shrinks to 1 MiB semi-spaces).
   */
  settle(oldPercent: number, lean: boolean): void;
}

/** The hooks of this process's V8 heap. */
export const V8_HEAP_HOOKS: HeapHooks = {
  newSpaceBytes: () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0,
  settle: (oldPercent, lean) =>
    setFlagsFromString(
      `--semi-space-growth-factor=1 --heap-growing-percent=${oldPercent}${lean ? ' --optimize-for-size' : ''}`,
    ),
};

/** How {@link shapeHeap} shapes the heap (defaults: the CLI's). */
export interface HeapShapeOptions {
  /** Memory-first sizing once settled (see {@link HeapHooks.settle}): `ahp` (its state grows with every event id). */
  lean?: boolean;
  capBytes?: number;
  /** Poll period, in milliseconds. */
  everyMs?: number;
  hooks?: HeapHooks;
}

/**
 * Poll the new space every `everyMs` (timers run between input chunks) and settle the heap once it is at least
 * `capBytes`; the poll ends then, and never keeps the process alive. For the CLI only, not for embedders' processes.
 * Returns a function that stops polling.
 */
export function shapeHeap(options: HeapShapeOptions = {}): () => void {
  const { lean = false, capBytes = NEW_SPACE_CAP_BYTES, everyMs = 5, hooks = V8_HEAP_HOOKS } = options;
  const poll = (): boolean => {
    if (hooks.newSpaceBytes() < capBytes) return false;
    hooks.settle(OLD_GENERATION_GROWTH_PERCENT, lean);
    return true;
  };
  if (poll()) return () => {};
  const timer = setInterval(() => {
    if (poll()) clearInterval(timer);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
