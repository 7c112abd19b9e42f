/**
 * The CLI process's V8 heap shape ({@link shapeHeap}): once the young generation reaches a cap, it stops growing and
 * the old generation is bounded to grow 30% past what the last full collection kept. V8 doubles the semi-spaces
 * (1 -> 16 MiB each on Node 20) while objects survive scavenges; the last doublings add ~24 MiB of RSS and, for a stream
 * checker whose objects mostly die young, no speed; V8's own old-generation factor (up to 4x) let AEP's old space hold
 * ~8 MB of garbage at 200,000 events (docs/benchmarks.md). Both are flags V8 reads after start-up, and V8 rejects a
 * code cache made under other flags (src/core/code-cache.ts): so both change together, once, late: a run too small
 * to reach the cap (every start-up) keeps every cache.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The new space (both semi-spaces) at which growth stops: 8 MiB, semi-spaces of 4 MiB. */
export const NEW_SPACE_CAP_BYTES = 8 << 20;

/** How far the old generation may grow past what the last full collection kept, in percent (2-3 more a run). */
export const OLD_GENERATION_GROWTH_PERCENT = 30;

/** What {@link shapeHeap} reads and sets; tests pass their own. */
export interface HeapHooks {
  newSpaceBytes(): number;
  /** Stop the young generation's growth and bound the old one's to `1 + oldPercent / 100`, in one flag change. */
  settle(oldPercent: number): void;
}

/** The hooks of this process's V8 heap. */
export const V8_HEAP_HOOKS: HeapHooks = {
  newSpaceBytes: () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0,
  settle: (oldPercent) => setFlagsFromString(`--semi-space-growth-factor=1 --heap-growing-percent=${oldPercent}`),
};

/**
 * Poll the new space every `everyMs` (timers run between input chunks) and settle the heap once it is at least
 * `capBytes`; the poll ends then, and never keeps the process alive. For the CLI only, not for embedders' processes.
 * Returns a function that stops polling.
 */
export function shapeHeap(capBytes = NEW_SPACE_CAP_BYTES, everyMs = 5, hooks: HeapHooks = V8_HEAP_HOOKS): () => void {
  const poll = (): boolean => {
    if (hooks.newSpaceBytes() < capBytes) return false;
    hooks.settle(OLD_GENERATION_GROWTH_PERCENT);
    return true;
  };
  if (poll()) return () => {};
  const timer = setInterval(() => {
    if (poll()) clearInterval(timer);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
