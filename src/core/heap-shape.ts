/**
 * The CLI process's V8 heap shape: a cap on the young generation and a bound on the old generation's growth between
 * full collections ({@link shapeHeap}). V8 doubles the semi-spaces (1 -> 16 MiB each on Node 20) while
 * objects survive scavenges; the last doublings add ~24 MiB of RSS and, for a stream checker whose objects mostly die
 * young, no speed (docs/benchmarks.md). Of the young generation's flags only `--semi-space-growth-factor` is read by
 * V8 after start-up, so growth is stopped once the new space reaches the cap.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The new space (both semi-spaces) at which growth stops: 8 MiB, semi-spaces of 4 MiB. */
export const NEW_SPACE_CAP_BYTES = 8 << 20;

/**
 * How far the old generation may grow past what the last full collection kept, in percent. V8's own factor (up to 4x
 * on Node 20) let AEP's old space hold ~8 MB of garbage at 200,000 events; 30% cost two or three more full collections
 * a run, each a few ms over a small live set (docs/benchmarks.md).
 */
export const OLD_GENERATION_GROWTH_PERCENT = 30;

/** What {@link capYoungGeneration} and {@link shapeHeap} read and set; tests pass their own. */
export interface HeapHooks {
  newSpaceBytes(): number;
  stopGrowth(): void;
  /** Bound the old generation's growth factor to `1 + percent / 100` (V8 reads it at each full collection). */
  boundOldGrowth(percent: number): void;
}

/** The hooks of this process's V8 heap. */
export const V8_HEAP_HOOKS: HeapHooks = {
  newSpaceBytes: () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0,
  stopGrowth: () => setFlagsFromString('--semi-space-growth-factor=1'),
  boundOldGrowth: (percent) => setFlagsFromString(`--heap-growing-percent=${percent}`),
};

/** Shape this process's heap (see the module comment): for the CLI only, not for embedders' processes. */
export function shapeHeap(hooks: HeapHooks = V8_HEAP_HOOKS): void {
  hooks.boundOldGrowth(OLD_GENERATION_GROWTH_PERCENT);
  capYoungGeneration(NEW_SPACE_CAP_BYTES, 5, hooks);
}

/**
 * Poll the new space every `everyMs` (timers run between input chunks) and stop its growth once it is at least
 * `capBytes`; the poll ends then, and never keeps the process alive. Returns a function that stops polling.
 */
export function capYoungGeneration(
  capBytes = NEW_SPACE_CAP_BYTES,
  everyMs = 5,
  hooks: HeapHooks = V8_HEAP_HOOKS,
): () => void {
  const poll = (): boolean => {
    if (hooks.newSpaceBytes() < capBytes) return false;
    hooks.stopGrowth();
    return true;
  };
  if (poll()) return () => {};
  const timer = setInterval(() => {
    if (poll()) clearInterval(timer);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
